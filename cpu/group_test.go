package cpu

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// groupCase: two groups of K = 3 episodes of T = 2 steps. The first
// group's returns are 1, 0, 0.5 (mean 0.5, sample std 0.5); the second's
// are all 0.25 (no variance). Episodes 0 and 3 end at their first step.
func groupCase() (episodes, lossWeights) {
	const n, T = 6, 2
	f := &givenSteps{n: n, logp: make([]float32, n*T), value: make([]float32, n*T), entropy: make([]float32, n*T)}
	for i := range f.logp {
		f.logp[i], f.value[i], f.entropy[i] = -0.5, 0.25, 1
	}
	returns := []float32{1, 0, 0.5, 0.25, 0.25, 0.25}
	togo := make([]float32, n*T)
	for t := 0; t < T; t++ {
		copy(togo[t*n:], returns)
	}
	in := episodes{steps: f, n: n, T: T, returns: returns, togo: togo, end: []int32{0, 1, 1, 0, 1, 1}, group: 3}
	return in, lossWeights{DLogp: make([]float32, n*T), DValue: make([]float32, n*T), DEnt: make([]float32, n*T)}
}

// TestGroupEstimatorsByHand: each estimator's policy weights −A_b/B (grpo:
// −A_b/(B·L_b)) against advantages worked out by hand, masked after each
// episode's end, the value and entropy weights as the step baseline's, and
// a group of equal returns weighted exactly 0.
func TestGroupEstimatorsByHand(t *testing.T) {
	const B = 10.0 // the update's batch: the chunk is part of it
	grpoStd := 0.5 + 1e-6
	for _, c := range []struct {
		name      string
		estimate  estimator
		advantage [3]float64 // the first group's; the second's are 0
		perLength bool
	}{
		// leave one out: 1 − (0 + 0.5)/2, 0 − (1 + 0.5)/2, 0.5 − (1 + 0)/2
		{"rloo", rlooLoss, [3]float64{0.75, -0.75, 0}, false},
		{"grpo", grpoLoss, [3]float64{0.5 / grpoStd, -0.5 / grpoStd, 0}, true},
		{"drgrpo", drgrpoLoss, [3]float64{0.5, -0.5, 0}, false},
	} {
		for _, mask := range []bool{false, true} {
			in, out := groupCase()
			s := lossScale{batch: B, valueCoef: 0.5, entropyCoef: 0.1, mask: mask}
			got := c.estimate(in, s, out)
			var wantPG float64
			for b := 0; b < in.n; b++ {
				A := 0.0
				if b < 3 {
					A = c.advantage[b]
				}
				steps := 2
				if mask && in.end[b] == 0 {
					steps = 1
				}
				w := A / B
				if c.perLength {
					w /= float64(steps)
				}
				for tt := 0; tt < 2; tt++ {
					i := tt*in.n + b
					if tt >= steps {
						require.Zero(t, out.DLogp[i], "%s mask=%v b=%d t=%d", c.name, mask, b, tt)
						require.Zero(t, out.DValue[i])
						require.Zero(t, out.DEnt[i])
						continue
					}
					wantPG += 0.5 * w // −logp · w, logp = −0.5
					require.InDeltaf(t, -w, out.DLogp[i], 1e-7, "%s mask=%v b=%d t=%d", c.name, mask, b, tt)
					require.InDelta(t, 0.5*2*(0.25-float64(in.returns[b]))/B, out.DValue[i], 1e-7)
					require.InDelta(t, -0.1/(B*2), out.DEnt[i], 1e-9)
				}
				if b >= 3 {
					require.Equal(t, float32(0), out.DLogp[b], "%s: a group without variance weighs nothing", c.name)
					require.False(t, math.IsNaN(float64(out.DLogp[b])))
				}
			}
			require.InDelta(t, wantPG, got.PG, 1e-12, "%s mask=%v", c.name, mask)
			require.InDelta(t, got.PG+0.5*got.Value+0.1*got.Entropy, got.Total, 1e-12)
		}
	}
}

// TestGroupStats: an odd group's mean and sample std, and a group of equal
// returns whose mean is exactly theirs (so its advantages are exactly 0).
func TestGroupStats(t *testing.T) {
	g := statsOf([]float32{2, 4, 9}) // mean 5; deviations −3, −1, 4: Σ² = 26, over K − 1 = 2
	require.Equal(t, 3, g.K)
	require.InDelta(t, 5, g.mean, 1e-12)
	require.InDelta(t, math.Sqrt(13), g.std, 1e-12)
	g = statsOf([]float32{0.1, 0.1, 0.1})
	require.Equal(t, float64(float32(0.1)), g.mean)
	require.Zero(t, g.std)
	for _, adv := range []func(float64, groupStats) float64{rlooAdvantage, grpoAdvantage, drgrpoAdvantage} {
		require.Zero(t, adv(float64(float32(0.1)), g))
	}
}

// TestGroupConfig: the estimators and group sizes a config refuses, each
// with one line that names the setting.
func TestGroupConfig(t *testing.T) {
	for _, c := range []struct {
		estimator    string
		group, batch int
		chunk        int
		problem      string // "" when valid
	}{
		{"", 0, 40, 16, ""},
		{"", 4, 40, 8, ""},
		{"rloo", 4, 40, 8, ""},
		{"grpo", 2, 40, 16, ""},
		{"drgrpo", 5, 40, 80, ""}, // the chunk acts as the batch
		{"rloo", 1, 40, 16, "estimator rloo compares the episodes of a group: it needs groups of at least 2, got 1"},
		{"rloo", 0, 40, 16, "estimator rloo compares the episodes of a group: it needs groups of at least 2, got 1"},
		{"grpo", 1, 40, 16, "estimator grpo compares the episodes of a group: it needs groups of at least 2, got 1"},
		{"ppo", 2, 40, 16, ""},
		{"ppo2", 2, 40, 16, `estimator must be empty (the -baseline), rloo, grpo, drgrpo or ppo, got "ppo2"`},
		{"rloo", 3, 40, 16, "group must divide the batch (40), got 3"},
		{"rloo", 8, 40, 20, "group must divide the chunk (20)"},
		{"", -1, 40, 16, "group must be in 1.."},
	} {
		cfg := shortConfig()
		cfg.Estimator, cfg.Group, cfg.Batch, cfg.Chunk = c.estimator, c.group, c.batch, c.chunk
		err := cfg.Validate()
		if c.problem == "" {
			require.NoError(t, err, "%+v", c)
			continue
		}
		var fe *trainer.FieldError
		require.ErrorAs(t, err, &fe, "%+v", c)
		require.Contains(t, err.Error(), c.problem)
	}
}

// groupConfig is shortConfig on calc with a mixed curriculum, group
// estimator est over groups of K.
func groupConfig(est string, K int) trainer.Config {
	c := shortConfig()
	c.Task, c.TaskSpec, c.Steps = "calc", "levels=a+b, a*b, a*b+c*d", 9
	c.Estimator, c.Group, c.MaskAfterAnswer = est, K, true
	return c
}

// TestGroupSharesInstance: with -group K, the K episodes of a group play
// one instance (its level and context drawn once, by the group's index),
// groups differ, and the episodes of a group sample their own programs;
// without groups each episode draws its own.
func TestGroupSharesInstance(t *testing.T) {
	for _, K := range []int{1, 4} {
		cfg := groupConfig("", K)
		if K > 1 {
			cfg.Estimator = trainer.EstimatorRLOO
		}
		e, err := newRun(cfg)
		require.NoError(t, err)
		record := make([]task.Episode, cfg.Batch)
		for i := range record {
			record[i].Program = make([]int32, cfg.Steps)
		}
		_, err = e.Engine.Update(trainer.Plan{Update: 3, Level: -1, Played: []int{0, 1, 2}, CDF: []float64{1.0 / 3, 2.0 / 3, 1},
			Entropy: 0.1, Record: record})
		e.Close()
		require.NoError(t, err)
		distinct := map[task.Instance]bool{}
		programs := map[string]bool{}
		for b := range record {
			distinct[record[b].Instance] = true
			programs[fmt.Sprint(record[b].Program)] = true
			if b%K != 0 {
				require.Equal(t, record[b-b%K].Instance, record[b].Instance, "K=%d: episode %d plays its group's instance", K, b)
			}
		}
		// calc's instances at these levels are many: a batch draws few twice
		require.Greater(t, len(distinct), cfg.Batch/K*3/4, "K=%d: groups draw their own instances", K)
		require.LessOrEqual(t, len(distinct), cfg.Batch/K, "K=%d", K)
		if K > 1 { // more programs than groups; the first episode of each group draws what episode b/K draws without groups
			require.Greater(t, len(programs), cfg.Batch/K, "K=%d: a group's episodes sample their own programs", K)
			require.Equal(t, firstInstances(t, cfg.Batch/K), groupFirsts(record, K))
		}
	}
}

// firstInstances are the instances episodes 0..n−1 play at update 3 without groups.
func firstInstances(t *testing.T, n int) []task.Instance {
	cfg := groupConfig("", 1)
	e, err := newRun(cfg)
	require.NoError(t, err)
	defer e.Close()
	record := make([]task.Episode, cfg.Batch)
	for i := range record {
		record[i].Program = make([]int32, cfg.Steps)
	}
	_, err = e.Engine.Update(trainer.Plan{Update: 3, Level: -1, Played: []int{0, 1, 2}, CDF: []float64{1.0 / 3, 2.0 / 3, 1},
		Entropy: 0.1, Record: record})
	require.NoError(t, err)
	out := make([]task.Instance, n)
	for b := range out {
		out[b] = record[b].Instance
	}
	return out
}

func groupFirsts(record []task.Episode, K int) []task.Instance {
	out := make([]task.Instance, 0, len(record)/K)
	for b := 0; b < len(record); b += K {
		out = append(out, record[b].Instance)
	}
	return out
}

// TestGroupEstimatorsTrainOnAnyThreads: with a group estimator and
// groups, the same seed gives bit-identical parameters, metrics and
// evaluations for any -threads, and the estimators differ from each other.
func TestGroupEstimatorsTrainOnAnyThreads(t *testing.T) {
	hashes := map[string]string{}
	for _, est := range []string{"", trainer.EstimatorRLOO, trainer.EstimatorGRPO, trainer.EstimatorDrGRPO} {
		var ref *trainer.Report
		for _, n := range []int{1, 3} {
			c := groupConfig(est, 2)
			c.Threads, c.Batch = n, 70 // 5 chunks of 16, the last one short (6: three groups)
			rep, err := run(t, c, &bytes.Buffer{})
			require.NoError(t, err)
			for i := range rep.Evaluations {
				rep.Evaluations[i].UpdatesPerSecond = 0 // timing, not arithmetic
			}
			if ref == nil {
				ref = rep
				continue
			}
			require.Equalf(t, ref.ParamSHA256, rep.ParamSHA256, "%s threads=%d", est, n)
			require.Equalf(t, ref.Final, rep.Final, "%s threads=%d", est, n)
			require.Equalf(t, ref.Evaluations, rep.Evaluations, "%s threads=%d", est, n)
			require.Equalf(t, ref.TrainReward, rep.TrainReward, "%s threads=%d", est, n)
		}
		require.NotContains(t, hashes, ref.ParamSHA256, "%q trains as %q does", est, hashes[ref.ParamSHA256])
		hashes[ref.ParamSHA256] = est
	}
}

// TestGroupUpdateAllocatesNothing: a group estimator's update allocates
// nothing, on several threads.
func TestGroupUpdateAllocatesNothing(t *testing.T) {
	for _, est := range trainer.GroupEstimators {
		c := groupConfig(est, 4)
		c.Threads = 3
		tr, err := newRun(c)
		require.NoError(t, err)
		_, err = tr.Update()
		require.NoError(t, err)
		require.Zero(t, testing.AllocsPerRun(3, func() { _, _ = tr.Update() }), "%s: the update allocates", est)
		tr.Close()
	}
}

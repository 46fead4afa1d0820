package cpu

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

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

package cpu

import (
	"bytes"
	"github.com/simdrl/simdrl/task"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// ppoConfig is a short PPO run of the seed task's default recipe: chunks
// of 8 in minibatches of 12 episodes, so that a minibatch spans chunks and
// ends with a short one.
func ppoConfig() trainer.Config {
	c := trainer.DefaultRecipe()
	c.Batch, c.Updates, c.EvalEvery, c.EvalBatch, c.FinalEpisodes, c.Explain, c.Chunk = 48, 6, 2, 20, 30, 0, 8
	c.Estimator, c.PPOEpochs, c.PPOMinibatches, c.LR = trainer.EstimatorPPO, 2, 4, 3e-4
	return c
}

// TestGAE: one episode's advantages and returns against the hand-computed
// ones (γ = 0.9, λ = 0.8, rewards 0, 0, 1, values 0.5, 0.6, 0.7, ended at
// step 2 of 5): terminated, the step after the end is worth 0; truncated,
// it is worth the last value, 0.7. Past the end both are 0.
func TestGAE(t *testing.T) {
	reward := []float64{0, 0, 1, 0, 0}
	value := []float32{0.5, 0.6, 0.7, 0.3, 0.3}
	const g, gl = 0.9, 0.9 * 0.8
	for _, c := range []struct {
		truncated bool
		last      float64 // δ_2
	}{{false, 1 - 0.7}, {true, 1 + g*0.7 - 0.7}} {
		d1, d0 := 0+g*0.7-0.6, 0+g*0.6-0.5
		a2 := c.last
		a1 := d1 + gl*a2
		a0 := d0 + gl*a1
		adv, ret := make([]float32, 5), make([]float32, 5)
		for i := range adv {
			adv[i], ret[i] = 9, 9
		}
		gae(reward, value, 2, c.truncated, 0.9, 0.8, adv, ret)
		require.InDeltaSlice(t, []float64{a0, a1, a2, 0, 0}, f64(adv), 1e-6, "truncated=%v", c.truncated)
		require.InDeltaSlice(t, []float64{a0 + 0.5, a1 + 0.6, a2 + 0.7, 0, 0}, f64(ret), 1e-6, "truncated=%v", c.truncated)
	}
}

func f64(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestPPOStoresTruncation: after an update of the seed task (whose Env does
// not report truncation: the engine infers it), a stored episode is
// truncated exactly when its last token is not the answer, and its
// advantages bootstrap accordingly.
func TestPPOStoresTruncation(t *testing.T) {
	c := ppoConfig()
	e, err := newRun(c)
	require.NoError(t, err)
	defer e.Close()
	_, err = e.Update()
	require.NoError(t, err)
	p, ans := e.ppo, e.task.Answer()
	var trunc, term int
	for b := 0; b < p.B; b++ {
		end := int(p.end[b])
		last := p.act[b*p.T+end]
		require.Equalf(t, last != ans, p.trunc[b], "episode %d ends with %d at step %d", b, last, end)
		if p.trunc[b] {
			trunc++
		} else {
			term++
		}
	}
	require.Positive(t, trunc)
	require.Positive(t, term)
}

// TestPPOStepGradient: the clipped surrogate's and the value loss's
// derivatives match central finite differences away from their kinks, and
// a clip that binds leaves no gradient.
func TestPPOStepGradient(t *testing.T) {
	const eps, h = 0.2, 1e-6
	for _, c := range []struct{ logp, old, adv, v, oldV, ret float64 }{
		{-1.0, -1.05, 0.7, 0.4, 0.35, 1}, {-1.0, -0.8, 0.7, 0.4, 0.1, 1}, // r inside; r below 1−ε with A > 0 (not clipped)
		{-1.0, -1.5, -0.4, 0.9, 0.5, 0}, {-2, -1.9, -1.2, -0.3, -0.1, 0.5}, // A < 0: r above 1+ε (not clipped); inside
	} {
		for _, clipV := range []bool{false, true} {
			_, dpg, _, dv := ppoStep(c.logp, c.old, c.adv, c.v, c.oldV, c.ret, eps, clipV)
			pgAt := func(l float64) float64 {
				pg, _, _, _ := ppoStep(l, c.old, c.adv, c.v, c.oldV, c.ret, eps, clipV)
				return pg
			}
			vlAt := func(v float64) float64 {
				_, _, vl, _ := ppoStep(c.logp, c.old, c.adv, v, c.oldV, c.ret, eps, clipV)
				return vl
			}
			require.InDeltaf(t, (pgAt(c.logp+h)-pgAt(c.logp-h))/(2*h), dpg, 1e-6, "%+v clipV=%v", c, clipV)
			require.InDeltaf(t, (vlAt(c.v+h)-vlAt(c.v-h))/(2*h), dv, 1e-6, "%+v clipV=%v", c, clipV)
			require.NotZero(t, dpg)
		}
	}
	// A > 0 and r = e^0.5 > 1+ε: the clipped term −A(1+ε) is the max, and constant.
	pg, dpg, _, _ := ppoStep(-1, -1.5, 2, 0, 0, 0, eps, false)
	require.InDelta(t, -2*1.2, pg, 1e-12)
	require.Zero(t, dpg)
	// A < 0 and r = e^−0.5 < 1−ε: the same on the other side.
	pg, dpg, _, _ = ppoStep(-1.5, -1, -2, 0, 0, 0, eps, false)
	require.InDelta(t, 2*0.8, pg, 1e-12)
	require.Zero(t, dpg)
	// the value moved more than ε from the rollout's toward G = 1: the clipped
	// loss ½(0.2 − 1)² is the larger, and constant in v; moved away from
	// G, the unclipped one is.
	_, _, vl, dv := ppoStep(0, 0, 0, 0.5, 0, 1, eps, true)
	require.InDelta(t, 0.5*0.8*0.8, vl, 1e-12)
	require.Zero(t, dv)
	_, _, vl, dv = ppoStep(0, 0, 0, 2, 0, -1, eps, true)
	require.InDelta(t, 0.5*3*3, vl, 1e-12)
	require.InDelta(t, 3, dv, 1e-12)
}

// TestPPOAdamSteps: an update takes epochs × minibatches Adam steps, and
// its first step is taken at the rollout's own policy: with one epoch of
// one minibatch, every ratio is 1 (KL and clip fraction 0).
func TestPPOAdamSteps(t *testing.T) {
	for _, s := range [][2]int{{1, 1}, {3, 4}, {2, 6}} {
		c := ppoConfig()
		c.PPOEpochs, c.PPOMinibatches = s[0], s[1]
		e, err := newRun(c)
		require.NoError(t, err)
		for u := 1; u <= 2; u++ {
			st, err := e.Update()
			require.NoError(t, err)
			require.Equal(t, s[0]*s[1], st.Diagnostics.Steps)
			require.Equal(t, u*s[0]*s[1], e.opt.steps, "epochs %d minibatches %d", s[0], s[1])
			if s == [2]int{1, 1} {
				require.Zero(t, st.Diagnostics.ApproxKL)
				require.Zero(t, st.Diagnostics.ClipFraction)
			} else if u == 2 {
				require.Positive(t, st.Diagnostics.ApproxKL)
			}
		}
		e.Close()
	}
}

// TestPPOTrainsOnAnyThreads: the same seed gives bit-identical parameters,
// evaluations and training rewards for any -threads, and PPO trains
// otherwise than REINFORCE.
func TestPPOTrainsOnAnyThreads(t *testing.T) {
	var ref *trainer.Report
	for _, n := range []int{1, 3} {
		c := ppoConfig()
		c.Threads = n
		rep, err := run(t, c, &bytes.Buffer{})
		require.NoError(t, err)
		for i := range rep.Evaluations {
			rep.Evaluations[i].UpdatesPerSecond = 0 // timing, not arithmetic
		}
		if ref == nil {
			ref = rep
			continue
		}
		require.Equal(t, ref.ParamSHA256, rep.ParamSHA256, "threads=%d", n)
		require.Equal(t, ref.Evaluations, rep.Evaluations, "threads=%d", n)
		require.Equal(t, ref.TrainReward, rep.TrainReward, "threads=%d", n)
	}
	c := ppoConfig()
	c.Estimator = ""
	rep, err := run(t, c, &bytes.Buffer{})
	require.NoError(t, err)
	require.NotEqual(t, ref.ParamSHA256, rep.ParamSHA256)
}

// TestPPOUpdateAllocatesNothing: a PPO update allocates nothing, on
// several threads.
func TestPPOUpdateAllocatesNothing(t *testing.T) {
	c := ppoConfig()
	c.Threads = 3
	tr, err := newRun(c)
	require.NoError(t, err)
	defer tr.Close()
	_, err = tr.Update()
	require.NoError(t, err)
	require.Zero(t, testing.AllocsPerRun(3, func() { _, _ = tr.Update() }))
}

// TestPPOResumesBitIdentically: PPO needs no state beyond the model and
// Adam's (its rollout is the update's own): a run interrupted and resumed
// ends as the uninterrupted one.
func TestPPOResumesBitIdentically(t *testing.T) {
	c := ppoConfig()
	c.Updates, c.Threads = 12, 2
	resumesBitIdentically(t, c)
}

// TestPPOExplainedVariance: 1 − Var(G − v)/Var(G) over the steps up to
// each episode's end, by hand: G = 1, 2, 3 and 4 (the step after the first
// episode's end left out), v = 1, 2, 2 and 5.
func TestPPOExplainedVariance(t *testing.T) {
	p := &ppo{B: 2, T: 3, end: []int32{1, 1}, ret: []float32{1, 2, 99, 3, 4, 99}, value: []float32{1, 2, 7, 2, 5, 7}}
	// G: mean 2.5, Σ(G − 2.5)² = 5; G − v = 0, 0, 1, −1: mean 0, Σ = 2.
	require.InDelta(t, 1-2.0/5, p.explainedVariance(), 1e-12)
	p.ret = []float32{2, 2, 0, 2, 2, 0}
	require.Zero(t, p.explainedVariance(), "Var(G) = 0: undefined, 0")
}

// TestFlatGroupsDiagnostic: a group estimator's update reports the
// fraction of its groups whose returns are all equal, counted here from
// the update's record.
func TestFlatGroupsDiagnostic(t *testing.T) {
	const K = 4
	c := groupConfig(trainer.EstimatorRLOO, K)
	e, err := newRun(c)
	require.NoError(t, err)
	defer e.Close()
	record := make([]task.Episode, c.Batch)
	for i := range record {
		record[i].Program = make([]int32, c.Steps)
	}
	st, err := e.Engine.Update(trainer.Plan{Update: 1, Level: 0, Played: []int{0}, CDF: []float64{1}, Entropy: 0.1, Record: record})
	require.NoError(t, err)
	flat := 0
	for g := 0; g < c.Batch; g += K {
		same := true
		for b := g + 1; b < g+K; b++ {
			same = same && record[b].Reward == record[g].Reward
		}
		if same {
			flat++
		}
	}
	require.NotNil(t, st.Diagnostics)
	require.Equal(t, float64(flat)/float64(c.Batch/K), st.Diagnostics.FlatGroups)
	require.Positive(t, flat)
	require.Less(t, flat, c.Batch/K, "some group must differ for the test to tell")

}

// TestPPOInterruptRestores: an update interrupted after some of its Adam
// steps leaves the parameters and Adam's state as they were before it, and
// the same update redone then equals an uninterrupted engine's.
func TestPPOInterruptRestores(t *testing.T) {
	c := ppoConfig()
	c.Threads = 2
	ref, err := newRun(c)
	require.NoError(t, err)
	defer ref.Close()
	e, err := newRun(c)
	require.NoError(t, err)
	defer e.Close()
	for _, r := range []*testRun{ref, e} {
		_, err = r.Update()
		require.NoError(t, err)
	}
	params := append([]float32(nil), e.model.params...)
	m, v := append([]float32(nil), e.opt.m...), append([]float32(nil), e.opt.v...)
	steps := e.opt.steps

	// the rollout is 6 chunks, each minibatch 2: interrupt in the second epoch.
	stop := make(chan struct{})
	e.SetInterrupt(stop)
	var worked atomic.Int32
	e.pool.afterWork = func(int) {
		if worked.Add(1) == 6+2*5 {
			close(stop)
		}
	}
	_, err = e.Engine.Update(trainer.Plan{Update: 2, Level: -1, Played: []int{0, 1, 2}, CDF: []float64{1.0 / 3, 2.0 / 3, 1}, Entropy: 0.1})
	require.ErrorIs(t, err, trainer.ErrInterrupted)
	require.Greater(t, int(worked.Load()), 6+2*4, "the update took some of its steps before the interrupt")
	require.Equal(t, params, e.model.params)
	require.Equal(t, m, e.opt.m)
	require.Equal(t, v, e.opt.v)
	require.Equal(t, steps, e.opt.steps)

	uninterrupt(e)
	_, err = ref.Update()
	require.NoError(t, err)
	_, err = e.Update()
	require.NoError(t, err)
	require.Equal(t, ref.model.params, e.model.params)
}

// TestPPOLearnsTheSeedTask: PPO (2 epochs of 4 minibatches, lr 3e-4,
// advantages not normalised: docs/recipes.md#ppo) trains the seed task's
// default recipe from scratch to the stop rule on every level (only level
// 0 under -short).
func TestPPOLearnsTheSeedTask(t *testing.T) {
	c := trainer.DefaultRecipe()
	c.Estimator, c.PPOEpochs, c.LR, c.NoNormAdv = trainer.EstimatorPPO, 2, 3e-4, true
	c.FinalEpisodes, c.Explain, c.Threads = 300, 0, 2
	if testing.Short() {
		c.TrainLevels, c.Updates = []int{0}, 100
	}
	var out bytes.Buffer
	rep, err := run(t, c, &out)
	require.NoError(t, err)
	t.Logf("%d updates, final solve rates %v", rep.Updates, rep.Final.SolveRate)
	for _, s := range c.TrainLevels {
		require.GreaterOrEqualf(t, rep.Final.SolveRate[s], 0.99, "level %d not learned:\n%s", s, out.String())
	}
	require.Less(t, rep.Updates, c.Updates, "the run never reached the stop rule:\n%s", out.String())
}

// TestPPOCheckpointAdamSteps: a PPO checkpoint's adam_step is updates ×
// epochs × minibatches; one that says otherwise is refused as damaged.
func TestPPOCheckpointAdamSteps(t *testing.T) {
	c := ppoConfig()
	e, err := newRun(c)
	require.NoError(t, err)
	defer e.Close()
	for range 2 {
		_, err = e.Update()
		require.NoError(t, err)
	}
	f := snapshot(t, e)
	require.Contains(t, f.Metadata["state"], `"adam_step":16`)
	r, err := resume(f, c)
	require.NoError(t, err)
	r.Close()
	f.Metadata["state"] = strings.Replace(f.Metadata["state"], `"adam_step":16`, `"adam_step":2`, 1)
	_, err = resume(f, c)
	require.ErrorContains(t, err, "adam_step 2 disagrees with update 2 (every update takes 8 Adam steps)")
}

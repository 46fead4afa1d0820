//go:build cgo

package gpu

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// Rollouts that stop once every episode of a block has ended (rollout.cu's
// until_done, the backward's ends): the tape task and the observing calc
// task, whose machines step inside the rollout's loop, and the seed task and
// calc without observations, whose programs are scored after it
// (simdrl_score_ends says where their episodes end).

// blockSteps reads back the latest rollout's steps run, one per block of
// nb, and the training episodes' end steps (n).
func blockSteps(t *testing.T, g *gpuRun, nb, n int) (ran, ends []int32) {
	t.Helper()
	ran, ends = make([]int32, nb), make([]int32, n)
	require.NoError(t, g.d.do(func() error {
		if err := download(ran, g.e.stepsRun); err != nil {
			return err
		}
		return download(ends, g.e.epEnd)
	}))
	return ran, ends
}

// lastEnd is the latest step at which an episode of block blk (E episodes a
// block, n in all) ended: the step after which the block had nothing left
// to play.
func lastEnd(ends []int32, blk, E, n int) int32 {
	last := int32(-1)
	for b := blk * E; b < min((blk+1)*E, n); b++ {
		last = max(last, ends[b])
	}
	return last
}

// TestGPUStoppingRolloutIsBitForBit: updates and evaluations of an engine
// whose rollouts stop once a block's episodes have all ended are bit for
// bit those of one that runs every step (fullLength): the same loss terms,
// rewards and gradient norms, and the same parameter bits after each
// update; and its blocks did stop, each right after the step at which its
// last episode ended (the kernel's count of the steps it ran, read back).
// On the planner's tiles (here an episode a block) and on tiles of 8, where
// a block plays on while some of its episodes have ended; on the tape, calc
// with and without observations and the seed task. The CPU comparisons
// (TestGPUTapeTrainingMatchesCPU, TestGPUObservingTrainingMatchesCPU,
// TestGPUTrainingMatchesCPU, TestGPUCalcTrainingMatchesCPU) run on the
// stopping engine.
func TestGPUStoppingRolloutIsBitForBit(t *testing.T) {
	openGPU(t).Close()
	saved := tileOverride
	t.Cleanup(func() { tileOverride = saved })
	for _, tc := range []struct {
		name, tile string
		cfg        trainer.Config
		mustStop   bool // some block stops before T (an episode a block: some episode answers early)
	}{
		{"tape", "", tapeConfig(t, "partial_credit=0.3; longer=12"), true},
		{"tape 4x2", "4x2", tapeConfig(t, "partial_credit=0.3; longer=12"), true},
		{"calc", "", calcConfig(t, calc.ObserveLevelsSpec, 0.3), true},
		{"calc 4x2", "4x2", calcConfig(t, calc.ObserveLevelsSpec, 0.3), true},
		{"calc without observations", "", calcConfig(t, "", -1), true},
		{"calc without observations 4x2", "4x2", calcConfig(t, "", -1), true},
		{"seed", "", seedConfig(), true},
		// (Eight episodes rarely all answer within the seed's 6 steps:
		// there the blocks' counts are checked, not that one stopped.)
		{"seed 4x2", "4x2", seedConfig(), false},
	} {
		tileOverride = tc.tile
		cfg := tc.cfg
		require.True(t, hostStops(cfg), "%s: the recipe's estimator masks the steps after an end", tc.name)
		stop, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(stop.Close)
		full, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(full.Close)
		full.e.fullLength = true
		T, B, p := stop.e.T, stop.e.B, stop.e.fwd
		E := p.E
		stopped := 0
		for u := 1; u <= 3; u++ {
			a, err := stop.Update()
			require.NoError(t, err)
			ran, ends := blockSteps(t, stop, p.Blocks, B)
			b, err := full.Update()
			require.NoError(t, err)
			fullRan, _ := blockSteps(t, full, p.Blocks, B)
			t.Logf("%s update %d: loss %.6f, reward %.4f, norm %.6f; steps run by block %v of %d", tc.name, u, a.Loss.Total, a.MeanReward, a.GradNorm, ran, T)
			require.Equal(t, b.Loss, a.Loss, "%s update %d loss", tc.name, u)
			require.Equal(t, b.MeanReward, a.MeanReward, "%s update %d reward", tc.name, u)
			require.Equal(t, b.SolveRate, a.SolveRate, "%s update %d solved", tc.name, u)
			require.Equal(t, b.GradNorm, a.GradNorm, "%s update %d gradient norm", tc.name, u)
			for blk := range ran {
				require.Equal(t, int32(T), fullRan[blk], "%s update %d: the full-length block %d", tc.name, u, blk)
				require.Equal(t, lastEnd(ends, blk, E, B)+1, ran[blk], "%s update %d block %d: the steps up to its last episode's end", tc.name, u, blk)
				if ran[blk] < int32(T) {
					stopped++
				}
			}
			ps, err := stop.Params()
			require.NoError(t, err)
			pf, err := full.Params()
			require.NoError(t, err)
			require.Len(t, ps, len(pf))
			for i := range ps {
				if math.Float32bits(ps[i]) != math.Float32bits(pf[i]) {
					require.Failf(t, "parameters differ", "%s update %d: parameter %d is %v, full-length %v", tc.name, u, i, ps[i], pf[i])
				}
			}
		}
		if tc.mustStop {
			require.Positive(t, stopped, "%s: some block stopped before step %d", tc.name, T)
		}
		want, err := full.EvaluateAll(60, 9, task.HeldOut)
		require.NoError(t, err)
		got, err := stop.EvaluateAll(60, 9, task.HeldOut)
		require.NoError(t, err)
		require.Equal(t, want, got, "%s: evaluations", tc.name)
	}
}

// TestGPURolloutStopsWhenItsEpisodesAreDone: a teacher-forced rollout
// where every episode answers at step k but the last, which never answers
// and whose budget is past the rollout's end: each block without it runs
// exactly k+1 steps, the kernel's own count read back, and the block with
// it all T; the rewards are those of the rollout that runs every step. On
// the tape (its machine stepped inside the loop), the seed task and calc
// without observations (scored after the loop), on the planner's tiles
// and on tiles of 8.
func TestGPURolloutStopsWhenItsEpisodesAreDone(t *testing.T) {
	openGPU(t).Close()
	saved := tileOverride
	t.Cleanup(func() { tileOverride = saved })
	for _, c := range []struct {
		name string
		cfg  trainer.Config
	}{
		{"tape", tapeConfig(t, "partial_credit=0.3; longer=12")},
		{"seed", seedConfig()},
		{"calc without observations", calcConfig(t, "", -1)},
	} {
		for _, tile := range []string{"", "4x2"} {
			tileOverride = tile
			stopsAtTheEnds(t, c.name, tile, c.cfg)
		}
	}
}

// seedConfig is the seed task's default recipe, cut to a test's size.
func seedConfig() trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 0, 0, 0, 2
	cfg.Hidden, cfg.Batch = 32, 48
	return cfg
}

func stopsAtTheEnds(t *testing.T, name, tile string, cfg trainer.Config) {
	const k = 2
	g, err := newGPURun(cfg)
	require.NoError(t, err)
	t.Cleanup(g.Close)
	e := g.e
	T, n, p := e.T, e.B, e.fwd
	E := p.E
	require.Greater(t, p.Blocks, 1, "%s: blocks without the endless episode", name)
	require.Greater(t, T, k+1, "%s: the rollout runs past step %d", name, k)
	endless := n - 1
	ans := g.task.Answer()
	filler := (ans + 1) % int32(e.V)
	tok := make([]int32, (T+1)*n)
	for b := 0; b < n; b++ {
		for s := 0; s < T; s++ {
			tok[(s+1)*n+b] = filler
		}
		if b != endless {
			tok[(k+1)*n+b] = ans
		}
	}
	ins := make([]task.Instance, n)
	for b := range ins {
		ins[b] = g.task.Draw(e.key, 1, uint32(b), rng.PurposeEval, 0, task.HeldOut)
		require.True(t, ins[b].Budget <= 0 || ins[b].Budget > k, "%s: episode %d's budget leaves room for step %d", name, b, k)
	}
	if ins[endless].Budget > 0 { // (the seed's episodes have none: MaxSteps, past its rollout)
		ins[endless].Budget = int32(T + 1) // past the rollout: it never ends
	}
	play := func(until bool) (ran []int32, out []float64) {
		out = make([]float64, 2*n)
		require.NoError(t, g.d.do(func() error {
			err := e.drawWith(n, func(b int) task.Instance { return ins[b] })
			if err == nil {
				err = upload(e.tokens, tok)
			}
			var nb int
			if err == nil {
				nb, err = e.rollout(rolloutSpec{n: n, mode: modeTeacher, train: true, level: 0, givenTasks: true, untilDone: until})
			}
			if err == nil {
				ran = make([]int32, nb)
				err = download(ran, e.stepsRun)
			}
			if err == nil {
				err = download(out, e.outcome)
			}
			return err
		}))
		return ran, out
	}
	ran, out := play(true)
	t.Logf("%s tile %q: steps run by block (%d episodes a block, T %d): %v", name, tile, E, T, ran)
	require.Len(t, ran, p.Blocks)
	for blk := range ran {
		want := int32(k + 1)
		if endless/E == blk {
			want = int32(T)
		}
		require.Equal(t, want, ran[blk], "%s tile %q block %d", name, tile, blk)
	}
	fullRan, fullOut := play(false)
	for blk := range fullRan {
		require.Equal(t, int32(T), fullRan[blk], "%s tile %q block %d without until_done", name, tile, blk)
	}
	require.Equal(t, fullOut, out, "%s tile %q: the episodes' rewards and correct flags", name, tile)
}

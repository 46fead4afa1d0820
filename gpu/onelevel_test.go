//go:build cgo

package gpu

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// exprConfig is the expr task's default recipe (its tuning: replay, item
// focus, reading) on spec, cut to a test's size.
func exprConfig(t testing.TB, spec string) trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task = "expr"
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	cfg.TaskSpec = spec
	cfg, err = trainer.WithTask(cfg) // the steps and levels of spec's sizes
	require.NoError(t, err)
	cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 0, 0, 0, 2
	return cfg
}

// TestGPUOneLevelTrainingMatchesCPU: a curriculum of one level (one
// cumulative weight, one level embedding) trains on the GPU as on the CPU:
// calc's a*b (bag) and abs(a-b) (observing, reading its context) under the
// mixed curriculum, and expr with leaves=2 (one size, reading, with the
// recipe's item focus, and replay): the same loss, reward and gradient
// norm update by update (the first update's rewards and solved episodes
// exactly), and the same greedy evaluation.
func TestGPUOneLevelTrainingMatchesCPU(t *testing.T) {
	openGPU(t).Close()
	for _, c := range []struct {
		name     string
		cfg      func(t testing.TB) trainer.Config
		pretrain int // CPU updates first, restored on the GPU
	}{
		{"calc a*b", func(t testing.TB) trainer.Config { return calcConfig(t, "a*b", -1) }, 0},
		{"calc abs(a-b) read", func(t testing.TB) trainer.Config {
			cfg := calcConfig(t, "abs(a-b)", -1)
			cfg.Context = trainer.ContextRead
			return cfg
		}, 0},
		{"expr leaves=2", func(t testing.TB) trainer.Config {
			cfg := exprConfig(t, "leaves=2")
			cfg.Replay = 8
			return cfg
		}, 10}, // by then the replay buffer holds verified programs
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg(t)
			cfg.Batch, cfg.Hidden, cfg.Seed = 8, 37, 5
			host, err := newHostRun(cfg)
			require.NoError(t, err)
			t.Cleanup(host.Close)
			require.Len(t, host.Task().Levels(), 1)
			g, err := newGPURun(cfg)
			require.NoError(t, err)
			t.Cleanup(g.Close)
			for u := 1; u <= c.pretrain; u++ {
				_, err := host.Update()
				require.NoError(t, err)
			}
			if c.pretrain > 0 { // the CPU's model, Adam's moments, counters, item weights and replay buffer
				f, err := host.Checkpoint()
				require.NoError(t, err)
				require.NoError(t, g.Restore(f))
			}
			var last trainer.UpdateStats
			for u := c.pretrain + 1; u <= c.pretrain+3; u++ {
				want, err := host.Update()
				require.NoError(t, err)
				got, err := g.Update()
				require.NoError(t, err, "update %d", u)
				last = got
				t.Logf("update %d (level %d): loss CPU %.6f GPU %.6f (replay %.4f %.4f), reward %.4f %.4f, solved %.3f %.3f, norm %.6f %.6f",
					u, got.Level, want.Loss.Total, got.Loss.Total, want.Loss.Replay, got.Loss.Replay, want.MeanReward, got.MeanReward,
					want.SolveRate, got.SolveRate, want.GradNorm, got.GradNorm)
				require.Equal(t, want.Level, got.Level)
				tol := 1e-4
				if u > c.pretrain+1 {
					tol = 2e-2 // sampling near a CDF boundary may pick another action once rounding differs
				}
				require.InDelta(t, want.Loss.Total, got.Loss.Total, tol*math.Max(1, math.Abs(want.Loss.Total)), "update %d loss", u)
				require.InDelta(t, want.Loss.Replay, got.Loss.Replay, tol*math.Max(1, math.Abs(want.Loss.Replay)), "update %d replay", u)
				require.InDelta(t, want.GradNorm, got.GradNorm, tol*math.Max(1, want.GradNorm)*5, "update %d grad norm", u)
				if u == c.pretrain+1 {
					require.Equal(t, want.MeanReward, got.MeanReward, "update %d: the same rewards", u)
					require.Equal(t, want.SolveRate, got.SolveRate, "update %d: the same solved episodes", u)
				}
			}
			if c.pretrain > 0 {
				require.Positive(t, last.Loss.Replay, "the replayed programs' term")
			}
			want, err := host.EvaluateAll(32, 9, task.HeldOut)
			require.NoError(t, err)
			got, err := g.EvaluateAll(32, 9, task.HeldOut)
			require.NoError(t, err)
			require.Len(t, got, 1)
			t.Logf("solve rate CPU %.3f GPU %.3f, reward %.4f %.4f", want[0].SolveRate, got[0].SolveRate, want[0].MeanReward, got[0].MeanReward)
			require.InDelta(t, want[0].SolveRate, got[0].SolveRate, 1.0/32+1e-9, "solve rate")
			require.InDelta(t, want[0].MeanReward, got[0].MeanReward, 1.0/32+1e-9, "reward")
		})
	}
}

// TestRolloutPassesTheLevelWeights: with no GPU, the rollout's level draw
// (simdrl_draw_level: mix, unlocked, cdf0, cdf1) for a mixed curriculum of
// one level, one level of two and two of the seed task's three: the first
// unlocked−1 cumulative weights as the curriculum gives them, and ones for
// the weights a shorter curriculum lacks (the kernel never reads them).
func TestRolloutPassesTheLevelWeights(t *testing.T) {
	for _, c := range []struct {
		task, levels   string
		played         []int
		cdf            []float64
		mix, unlocked  int
		wantC0, wantC1 float64
	}{
		{"calc", "a*b", []int{0}, []float64{1}, 0, 1, 1, 1},
		{"calc", "a*b, a*b+c", []int{1}, []float64{1, 0}, 1, 1, 1, 0},
		{"seed", "", []int{0, 2}, []float64{0.25, 1, 0}, 2 << 8, 2, 0.25, 1},
	} {
		cfg := trainer.DefaultRecipe()
		cfg.Task = c.task
		if c.levels != "" {
			cfg.TaskSpec = calctask.CalcSpec{Levels: c.levels}.String()
		}
		e := launchOnlyEngine(t, cfg)
		got := map[string]uint64{}
		e.onLaunch = func(name string, a *args) error {
			for i, n := range a.names {
				got[n] = a.slots[i]
			}
			return nil
		}
		_, err := e.rollout(rolloutSpec{n: e.B, mode: modeSample, train: true, level: -1, purpose: rng.PurposeTask, round: 1,
			played: c.played, cdf: c.cdf, givenTasks: c.task != "seed"})
		require.NoError(t, err, "%s %v", c.task, c.played)
		require.Equal(t, uint64(c.mix), got["mix"], "%s %v", c.task, c.played)
		require.Equal(t, uint64(c.unlocked), got["unlocked"], "%s %v", c.task, c.played)
		require.Equal(t, math.Float64bits(c.wantC0), got["cdf0"], "%s %v", c.task, c.played)
		require.Equal(t, math.Float64bits(c.wantC1), got["cdf1"], "%s %v", c.task, c.played)
	}
}

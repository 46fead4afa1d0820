//go:build cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGPUEvaluatesInParts: an evaluation of more episodes than the
// engine's buffers hold (a confirmation's 1000, or an evaluation pending in
// a checkpoint resumed with -eval-every 0, which no longer sizes them) plays
// in parts, and gives what one launch of them all gives: for the seed task
// (the kernel draws the first part, the host the others) and for calc.
func TestGPUEvaluatesInParts(t *testing.T) {
	d := openGPU(t)
	const n = 130
	seed := trainer.ReferenceRecipe()
	seed.Hidden, seed.Batch, seed.FinalEpisodes, seed.Explain, seed.EvalEvery = 32, 48, 0, 0, 0
	calc := calcConfig(t, "", 0.3)
	calc.Hidden, calc.Batch = 32, 48
	for _, cfg := range []trainer.Config{seed, calc} {
		whole := cfg
		whole.EvalEvery, whole.EvalBatch = 1, n
		parts := testEngine(t, d, cfg, nil)
		one := testEngine(t, d, whole, nil)
		require.Equal(t, 48, parts.maxN)
		require.Equal(t, n, one.maxN)
		tk, err := cfg.OpenTask()
		require.NoError(t, err)
		for lv := range tk.Levels() {
			var got, want trainer.EvalResult
			require.NoError(t, d.do(func() error {
				var err error
				if got, err = parts.evaluate(lv, n, 7, task.HeldOut); err != nil {
					return err
				}
				want, err = one.evaluate(lv, n, 7, task.HeldOut)
				return err
			}))
			require.Equal(t, n, got.Episodes)
			require.InDelta(t, want.MeanReward, got.MeanReward, 1e-12, "%s level %d", cfg.Task, lv)
			require.Equal(t, want.SolveRate, got.SolveRate, "%s level %d", cfg.Task, lv)
			t.Logf("%s level %d: reward %.6f solved %.3f", cfg.Task, lv, got.MeanReward, got.SolveRate)
		}
	}
}

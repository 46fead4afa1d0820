package cpu

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// scanStepLoss is the step baseline as it was before the task was stepped:
// every episode scored whole (Score), and the mask found by scanning the
// actions for the first answer, capped at the budget's last token.
func scanStepLoss(w *gru.Workspace, tk task.Task, ins []task.Instance, batch int, valueCoef, entropyCoef float64, mask bool) (trainer.LossTerms, []float32) {
	n, T := w.Rows(), w.T
	B := float64(batch)
	var out trainer.LossTerms
	rewards := make([]float32, n)
	prog := make([]int32, T)
	for b := 0; b < n; b++ {
		for t := range prog {
			prog[t] = w.Action(b, t)
		}
		rewards[b] = float32(task.Score(tk, &ins[b], prog).Reward)
		last := T - 1
		if mask {
			ans := T - 1
			for t := 0; t < T; t++ {
				if prog[t] == tk.Answer() {
					ans = t
					break
				}
			}
			last = min(ans, int(ins[b].Budget)-1)
		}
		R := float64(rewards[b])
		for t := 0; t <= last; t++ {
			v := float64(w.Value(b, t))
			adv := R - v
			out.PG -= float64(w.Logp(b, t)) * adv / B
			out.Value += (v - R) * (v - R) / B
			out.Entropy -= float64(w.Entropy(b, t)) / (B * float64(T))
		}
	}
	out.Total = out.PG + valueCoef*out.Value + entropyCoef*out.Entropy
	return out, rewards
}

// TestReturnsAreScores: on sampled rollouts of a fresh model (seed and calc,
// T as configured and longer, past the budgets), the returns the loss reads from the
// stepped task are the whole-program scores, and the step loss is the scan's
// bit for bit, masked or not.
func TestReturnsAreScores(t *testing.T) {
	calcCfg := trainer.DefaultRecipe()
	calcCfg.Task = "calc"
	calcCfg, err := trainer.WithTask(calcCfg)
	require.NoError(t, err)
	for _, base := range []trainer.Config{trainer.DefaultRecipe(), calcCfg} {
		for _, steps := range []int{base.Steps, base.Steps + 1, base.Steps + 4} {
			cfg := base
			cfg.Steps, cfg.Batch, cfg.Chunk, cfg.Threads = steps, 64, 64, 1
			e, err := newRun(cfg)
			require.NoError(t, err)
			w := e.pool.workers[0]
			const n = 64
			w.ws.Reset(n)
			for b := 0; b < n; b++ {
				w.tasks[b] = e.task.Draw(e.key, 3, uint32(b), rng.PurposeTask, b%len(e.task.Levels()), task.Training)
				w.setContext(b, &w.tasks[b])
			}
			w.rollout(e.model, gru.Sample, gru.Stream{Key: e.key, Round: 3}, false)
			w.steps.returns(n, steps, w.rewards[:n])
			for _, mask := range []bool{false, true} {
				want, rewards := scanStepLoss(w.ws, e.task, w.tasks[:n], 100, 0.5, 0.05, mask)
				require.Equal(t, rewards, w.rewards[:n])
				got := termsOf(enginekit.StepLoss(chunkEpisodes(w.ws, &w.steps, w.rewards[:n], 1), enginekit.LossScale{Batch: 100, ValueCoef: 0.5, EntropyCoef: 0.05, Mask: mask}, weightsOf(w.ws)))
				require.Equalf(t, math.Float64bits(want.Total), math.Float64bits(got.Total), "%s T=%d mask=%v: %v vs %v", cfg.Task, steps, mask, want, got)
				require.Equal(t, want, got)
			}
			answered := 0
			for b := 0; b < n; b++ {
				if w.steps.end[b] < int32(steps-1) {
					answered++
				}
				require.Equal(t, float64(w.rewards[b]), float64(float32(w.steps.episodeReturn(n, steps, b))))
			}
			require.Positive(t, answered, "%s T=%d: some episodes end early (the mask matters)", cfg.Task, steps)
			e.Close()
		}
	}
}

// TestReturnToGo: a task that pays at several steps weights each step by
// what is still to come; past the end, by the whole return.
func TestReturnToGo(t *testing.T) {
	const n, T = 2, 4
	s := newStepBuffers(n, T)
	// episode 0 pays 1 at step 0 and 2 at step 2, ends at step 2; episode 1 never ends.
	s.reward = []float64{1, 0, 0, 0, 2, 0, 0, 0}
	s.done = []bool{false, false, false, false, true, false, true, false}
	ret := make([]float32, n)
	s.returns(n, T, ret)
	require.Equal(t, []float32{3, 0}, ret)
	require.Equal(t, []int32{2, T - 1}, s.end)
	require.Equal(t, []float32{3, 0, 2, 0, 2, 0, 3, 0}, s.togo)
}

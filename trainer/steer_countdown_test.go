package trainer

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// A Countdown task is not Itemized, but its held-out split is the final
// evaluation's test (its 1,000 listed held-out instances): its runs steer
// and confirm on training instances (task.TrainingSteered), so that the
// stop rule never reads the split it is judged on. Here the training
// evaluations are all right and the held-out ones all wrong: every
// confirmation plays the training split (before the fix, the held-out
// rate of 0 never nominated the run and nothing was confirmed).
func TestCountdownSteersOnTraining(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the confirmation's subsets list the training instances: the listing cache
	t.Setenv("HOME", t.TempDir())
	for _, name := range []string{"countdown3", "game24"} {
		tk, err := task.Open(name, "")
		require.NoError(t, err)
		cfg := stopConfig()
		cfg.Task = name
		cfg = TaskDefaults(cfg, tk)
		cfg.Updates, cfg.Explain, cfg.EvalEvery, cfg.FinalEpisodes = 40, 0, 20, 0
		l, err := enginekit.NewLayout(cfg.Hidden, tk)
		require.NoError(t, err)
		e := &fakeEngine{steps: cfg.Steps, params: make([]float32, l.Size), m: make([]float32, l.Size), v: make([]float32, l.Size),
			levels: 1, rate: func(c call, _ int) float64 {
				if c.split == task.Training {
					return 1
				}
				return 0
			}}
		tr, err := New(cfg, tk, e)
		require.NoError(t, err)
		rep, err := Drive(tr, &bytes.Buffer{}, Options{})
		require.NoError(t, err)
		require.NotEmpty(t, rep.Confirmations, "%s: the training split's 1.0 nominates the run", name)
		for _, cf := range rep.Confirmations {
			require.Equal(t, "training", cf.Split, name)
		}
		confirmed := 0
		for _, cl := range e.calls {
			if isConfirmation(cl) {
				require.Equal(t, task.Training, cl.split, "%s: confirmations play training instances", name)
				confirmed++
			}
		}
		require.Positive(t, confirmed, name)
		require.Equal(t, []float64{1}, []float64(rep.Evaluations[0].TrainingSplit), name)
		require.Equal(t, []float64{0}, []float64(rep.Evaluations[0].SolveRate), name)
	}
}

package trainer

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// readTuned is a task that tunes only how its context is read.
type readTuned struct{ task.Task }

func (readTuned) DefaultTuning() task.Tuning { return task.Tuning{Context: ContextRead} }

// TestTunedMerges: a task that declares only its context through task.Tuned
// keeps the recipe's schedule, entropy bonus, learning rate and width
// instead of getting 0 updates and no entropy bonus.
func TestTunedMerges(t *testing.T) {
	calc, err := task.Open("calc", "")
	require.NoError(t, err)
	recipe := DefaultRecipe()
	cfg := TaskDefaults(recipe, readTuned{calc})
	require.Equal(t, ContextRead, cfg.Context)
	require.Equal(t, recipe.Updates, cfg.Updates)
	require.Equal(t, recipe.EntropyCoef, cfg.EntropyCoef)
	require.Equal(t, recipe.EntropyFinal, cfg.EntropyFinal)
	require.Equal(t, recipe.LR, cfg.LR)
	require.Equal(t, recipe.Hidden, cfg.Hidden)
	require.Equal(t, recipe.TaskSpec, cfg.TaskSpec)
}

// TestBuiltinTunings: the calc and expr tunings set every setting they
// name and leave the recipe's others as they were (the reference hashes'
// and the recipes' configs).
func TestBuiltinTunings(t *testing.T) {
	for _, name := range []string{"calc", "expr"} {
		tk, err := task.Open(name, "")
		require.NoError(t, err)
		tu := tk.(task.Tuned).DefaultTuning()
		recipe := DefaultRecipe()
		cfg := TaskDefaults(recipe, tk)
		require.Equal(t, tu.Spec, cfg.TaskSpec, name)
		require.Equal(t, tu.EntropyCoef, cfg.EntropyCoef, name)
		require.Equal(t, tu.Updates, cfg.Updates, name)
		require.Equal(t, tu.EntropyUpdates, cfg.EntropyUpdates, name)
		require.Equal(t, tu.EntropyFinal, cfg.EntropyFinal, name)
		require.Equal(t, tu.Replay, cfg.Replay, name)
		require.Equal(t, tu.ReplayCoef, cfg.ReplayCoef, name)
		require.Equal(t, tu.ItemFocus, cfg.ItemFocus, name)
		if tu.Context != "" {
			require.Equal(t, tu.Context, cfg.Context, name)
		} else {
			require.Equal(t, recipe.Context, cfg.Context, name)
		}
		if tu.Hidden > 0 {
			require.Equal(t, tu.Hidden, cfg.Hidden, name)
		} else {
			require.Equal(t, recipe.Hidden, cfg.Hidden, name)
		}
		require.Equal(t, recipe.LR, cfg.LR, name)
	}
}

// TestTuningKeepsACallersStopFrom: a library caller's StopFrom stays
// through TaskDefaults when the task's tuning leaves it unset (calc, expr,
// a task that tunes only its context), and a tuning that sets it (tape's)
// replaces it as it replaces the recipe's other settings.
func TestTuningKeepsACallersStopFrom(t *testing.T) {
	calc, err := task.Open("calc", "")
	require.NoError(t, err)
	for _, name := range []string{"calc", "expr", "tape", "read-tuned"} {
		tk := task.Task(readTuned{calc})
		if name != "read-tuned" {
			tk, err = task.Open(name, "")
			require.NoError(t, err)
		}
		cfg := DefaultRecipe()
		cfg.StopFrom = 500
		got := TaskDefaults(cfg, tk).StopFrom
		if tu := tk.(task.Tuned).DefaultTuning(); tu.StopFrom != 0 {
			require.Equal(t, tu.StopFrom, got, name)
			continue
		}
		require.Equal(t, 500, got, name)
	}
}

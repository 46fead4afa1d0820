package trainer

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// plainTask is a task that declares no tuning (calc's rules, without its
// task.Tuned).
type plainTask struct{ task.Task }

// orderedTask is a plainTask whose context's order matters.
type orderedTask struct{ plainTask }

func (orderedTask) OrderSensitive() bool { return true }

// TestUntunedTaskGetsTheUntunedRecipe: under the default recipe a task
// that declares no tuning trains on the untuned schedule, with the recipe's
// entropy bonus, learning rate and width, and reads its context token by
// token when its order matters; under the seed recipe it keeps the recipe
// as it is.
func TestUntunedTaskGetsTheUntunedRecipe(t *testing.T) {
	calc, err := task.Open("calc", "")
	require.NoError(t, err)
	recipe := DefaultRecipe()
	for _, tk := range []task.Task{plainTask{calc}, orderedTask{plainTask{calc}}} {
		cfg := TaskDefaults(recipe, tk)
		require.Equal(t, UntunedUpdates, cfg.Updates)
		require.Equal(t, UntunedEntropyUpdates, cfg.EntropyUpdates)
		require.Equal(t, recipe.EntropyCoef, cfg.EntropyCoef)
		require.Equal(t, recipe.EntropyFinal, cfg.EntropyFinal)
		require.Equal(t, recipe.LR, cfg.LR)
		require.Equal(t, recipe.Hidden, cfg.Hidden)
		require.Equal(t, recipe.StopAt, cfg.StopAt)
	}
	require.Equal(t, recipe.Context, TaskDefaults(recipe, plainTask{calc}).Context)
	require.Equal(t, ContextRead, TaskDefaults(recipe, orderedTask{plainTask{calc}}).Context)

	seedRecipe := ReferenceRecipe()
	seedRecipe.Task = "calc"
	cfg := TaskDefaults(seedRecipe, orderedTask{plainTask{calc}})
	require.Equal(t, seedRecipe.Updates, cfg.Updates)
	require.Equal(t, seedRecipe.EntropyUpdates, cfg.EntropyUpdates)
	require.Equal(t, seedRecipe.Context, cfg.Context)
}

// TestDeclaredTuningsIgnoreTheUntunedRecipe: a task that declares its
// tuning (the built-in calc, expr and tape, a task that tunes only its
// context) and the seed task, which keeps the recipe, get nothing of the
// untuned recipe: their runs (and the reference hashes) are as before it.
func TestDeclaredTuningsIgnoreTheUntunedRecipe(t *testing.T) {
	recipe := DefaultRecipe()
	calc, err := task.Open("calc", "")
	require.NoError(t, err)
	require.Equal(t, recipe.Updates, TaskDefaults(recipe, readTuned{calc}).Updates)
	require.Equal(t, recipe.EntropyUpdates, TaskDefaults(recipe, readTuned{calc}).EntropyUpdates)
	for _, name := range []string{"calc", "expr", "tape"} {
		tk, err := task.Open(name, "")
		require.NoError(t, err)
		cfg := recipe
		cfg.Task = name
		// Before the untuned recipe: the task's steps and levels, then its own tuning and nothing else.
		plain := cfg
		plain.Recipe = "untuned-off"
		want := TaskDefaults(plain, tk)
		want.Recipe = cfg.Recipe
		want = tune(want, tk.(task.Tuned).DefaultTuning())
		require.Equal(t, want, TaskDefaults(cfg, tk), name)
	}
	seed, err := task.Open("seed", "")
	require.NoError(t, err)
	require.Equal(t, recipe, TaskDefaults(recipe, seed))
}

package customtask

import (
	"io"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// untunedConfig is what `go run ./cmd/NAME` trains with no flag: the
// default recipe with the task's defaults, which for a task that declares
// no tuning (task.Tuned) are the untuned recipe's (trainer.TaskDefaults).
func untunedConfig(t *testing.T, name string) trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads = name, 2
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	require.Equal(t, trainer.UntunedUpdates, cfg.Updates)
	return cfg
}

// TestUntunedRecipeTrainsNewTasks: the untuned recipe, no setting changed,
// trains the task that needs memory (reverse) and the one that needs
// observation (lock) to a final greedy solve rate of at least 0.99 on every
// level, before the schedule's end (the stop rule ends the run). Under
// -short only their first level is trained and checked, which the old
// defaults solved too: the full form is what CI runs.
func TestUntunedRecipeTrainsNewTasks(t *testing.T) {
	for _, name := range []string{ReverseName, LockName} {
		t.Run(name, func(t *testing.T) {
			cfg := untunedConfig(t, name)
			if testing.Short() {
				cfg.TrainLevels = []int{0}
			}
			tr, e := newRun(t, cfg)
			defer e.Close()
			rep, err := trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
			require.NoError(t, err)
			t.Logf("%s: stopped after %d updates: %v", name, rep.Updates, rep.Final.SolveRate)
			require.Less(t, rep.Updates, cfg.Updates, "the stop rule ends the run")
			for _, lv := range cfg.TrainLevels {
				require.GreaterOrEqual(t, rep.Final.SolveRate[lv], 0.99, "level %d", lv)
			}
		})
	}
}

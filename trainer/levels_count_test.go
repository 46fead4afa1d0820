package trainer

import (
	"testing"

	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// TestOpeningReadsTheLevelsOnce: a config's task defaults and validation
// read a task's levels a fixed number of times, however many it has (not
// once per level: a task that builds its levels at every call would cost
// the square of their number).
func TestOpeningReadsTheLevelsOnce(t *testing.T) {
	count := func(n int) int {
		calls := 0
		tk := tasktest.ManyLevels{Task: seedtask.Seed(), N: n, Calls: &calls}
		cfg := TaskDefaults(DefaultRecipe(), tk)
		require.Len(t, cfg.TrainLevels, n)
		require.NoError(t, cfg.ValidateFor(tk))
		return calls
	}
	few := count(4)
	require.Equal(t, few, count(task.MaxLevels), "Levels calls with 4 levels and with %d", task.MaxLevels)
	require.LessOrEqual(t, few, 4)
}

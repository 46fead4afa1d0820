package trainer

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// manyLevels is the seed task with n levels, built anew at every Levels
// call (as a user's task may), counting the calls.
type manyLevels struct {
	task.Task
	n     int
	calls *int
}

func (m manyLevels) Levels() []task.Level {
	*m.calls++
	out := make([]task.Level, m.n)
	for i := range out {
		out[i] = task.Level{Name: fmt.Sprint("level ", i), Context: 3, Budget: 7, Shortest: 3}
	}
	return out
}

func (m manyLevels) NewEnv(rows int) task.Env { return m.Task.(task.Stepper).NewEnv(rows) }

// TestOpeningReadsTheLevelsOnce: a config's task defaults and validation
// read a task's levels a fixed number of times, however many it has (not
// once per level: a task that builds its levels at every call would cost
// the square of their number).
func TestOpeningReadsTheLevelsOnce(t *testing.T) {
	count := func(n int) int {
		calls := 0
		tk := manyLevels{seedtask.Seed(), n, &calls}
		cfg := TaskDefaults(DefaultRecipe(), tk)
		require.Len(t, cfg.TrainLevels, n)
		require.NoError(t, cfg.ValidateFor(tk))
		return calls
	}
	few := count(4)
	require.Equal(t, few, count(task.MaxLevels), "Levels calls with 4 levels and with %d", task.MaxLevels)
	require.LessOrEqual(t, few, 4)
}

package task_test

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// many is the seed task with n levels, built anew at every Levels call
// (as a user's task may), counting the calls.
type many struct {
	task.Task
	n     int
	calls *int
}

func (m many) Levels() []task.Level {
	*m.calls++
	out := make([]task.Level, m.n)
	for i := range out {
		out[i] = task.Level{Name: fmt.Sprint("level ", i), Context: 3, Budget: 7, Shortest: 3}
	}
	return out
}

func (m many) NewEnv(rows int) task.Env { return m.Task.(task.Stepper).NewEnv(rows) }

// TestValidateBoundsTheLevels: a task may declare at most task.MaxLevels
// levels (the model holds an embedding per level, and an evaluation plays
// every level): one more is refused when it is opened, naming the task and
// the bound, and task.MaxLevels themselves are taken.
func TestValidateBoundsTheLevels(t *testing.T) {
	calls := 0
	require.NoError(t, task.Validate(many{seedtask.Seed(), task.MaxLevels, &calls}))
	err := task.Validate(many{seedtask.Seed(), task.MaxLevels + 1, &calls})
	require.ErrorContains(t, err, fmt.Sprintf("has %d levels", task.MaxLevels+1))
	require.ErrorContains(t, err, fmt.Sprintf("at most %d", task.MaxLevels))
	require.ErrorContains(t, err, "the seed task")
	var ve *task.ViolationError
	require.ErrorAs(t, err, &ve)
}

package cpu

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// envPanics is the seed task with an Env whose making panics, as a user's
// task with a bug in NewEnv would.
type envPanics struct{ task.Stepper }

func (envPanics) NewEnv(int) task.Env { panic("no env today") }

// TestNewWithTaskReturnsATasksPanic: a panic in the task's code while the
// engine is built (its Env made for each worker) is a *task.PanicError that
// names the task, through the Go API (NewWithTask), never a crash.
func TestNewWithTaskReturnsATasksPanic(t *testing.T) {
	st, ok := seedtask.Seed().(task.Stepper)
	require.True(t, ok, "the seed task steps its own Env")
	cfg := trainer.ReferenceRecipe() // the seed task's
	cfg.Steps = 7                    // the wrapper hides the reference's 6-token schedule
	cfg.Threads = 2
	e, err := NewWithTask(cfg, envPanics{st})
	require.Nil(t, e)
	var pe *task.PanicError
	require.True(t, errors.As(err, &pe), "%v", err)
	require.Equal(t, "no env today", pe.Value)
	require.ErrorContains(t, err, "seed")
}

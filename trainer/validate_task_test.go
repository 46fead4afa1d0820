package trainer

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// mute is the calc task with its answer among the tokens the policy never
// writes: no program of it could ever end.
type mute struct{ task.Task }

func (mute) Name() string { return "test-mute" }
func (m mute) NotActions() []int32 {
	return append(append([]int32(nil), m.Task.NotActions()...), m.Answer())
}

func init() {
	task.Register("test-mute", func(spec string) (task.Task, error) {
		t, err := task.Open("calc", spec)
		return mute{t}, err
	})
}

// TestOpenRefusesATaskThatCannotTrain: a registered task that can never
// train is refused when it is opened (task.Open), and a configuration of
// it by the task field (Config.Validate), naming the task.
func TestOpenRefusesATaskThatCannotTrain(t *testing.T) {
	_, err := task.Open("test-mute", "")
	require.ErrorContains(t, err, "the test-mute task's answer token")
	require.ErrorContains(t, err, "is among its non-actions")
	cfg := DefaultRecipe()
	cfg.Task = "test-mute"
	err = cfg.Validate()
	var fe *FieldError
	require.True(t, errors.As(err, &fe), "%v", err)
	require.Equal(t, "task", fe.Field)
	require.ErrorContains(t, err, "the test-mute task's answer token")
}

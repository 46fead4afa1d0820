package task_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/simdrl/simdrl/internal/tasktest"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// TestValidateBoundsTheLevels: a task may declare at most task.MaxLevels
// levels (the model holds an embedding per level, and an evaluation plays
// every level): one more is refused when it is opened, naming the task and
// the bound, and task.MaxLevels themselves are taken.
func TestValidateBoundsTheLevels(t *testing.T) {
	calls := 0
	require.NoError(t, task.Validate(tasktest.ManyLevels{Task: seedtask.Seed(), N: task.MaxLevels, Calls: &calls}))
	err := task.Validate(tasktest.ManyLevels{Task: seedtask.Seed(), N: task.MaxLevels + 1, Calls: &calls})
	require.ErrorContains(t, err, fmt.Sprintf("has %d levels", task.MaxLevels+1))
	require.ErrorContains(t, err, fmt.Sprintf("at most %d", task.MaxLevels))
	require.ErrorContains(t, err, "the seed task")
	var ve *task.ViolationError
	require.ErrorAs(t, err, &ve)
}

// negItems is an itemized calc task with a negative item count in one
// level and split.
type negItems struct {
	tasktest.ItemCalc
	split task.Split
}

func (n negItems) Items(level int, split task.Split) int {
	if level == 1 && split == n.split {
		return -5
	}
	return n.ItemCalc.Items(level, split)
}

// TestValidateRefusesNegativeItemCounts: an itemized task's item counts
// are refused when one is negative, in any split, naming the task, the
// level and the split; the counts as they are pass.
func TestValidateRefusesNegativeItemCounts(t *testing.T) {
	ic, err := tasktest.NewItemCalc("", nil)
	require.NoError(t, err)
	require.NoError(t, task.Validate(ic))
	for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
		err := task.Validate(negItems{ic, sp})
		require.ErrorContains(t, err, "the calc task's level 1", sp.String())
		require.ErrorContains(t, err, "-5 "+sp.String()+" items", sp.String())
		var ve *task.ViolationError
		require.ErrorAs(t, err, &ve)
	}
}

// TestCheckerRewardSaysTheValue: a return beyond float32's range, in
// which the engines train, is refused with its value and why, not as the
// +Inf it would become; a non-finite one as before; float32's largest is
// taken.
func TestCheckerRewardSaysTheValue(t *testing.T) {
	c := task.NewChecker(seedtask.Seed())
	for _, r := range []float64{1e300, -1e39} {
		err := c.Reward(r, 2)
		require.ErrorContains(t, err, fmt.Sprint(r))
		require.ErrorContains(t, err, "float32")
		require.ErrorContains(t, err, "level 2")
	}
	require.ErrorContains(t, c.Reward(math.Inf(1), 0), "+Inf")
	require.ErrorContains(t, c.Reward(math.NaN(), 0), "NaN")
	require.NoError(t, c.Reward(math.MaxFloat32, 0))
	require.NoError(t, c.Reward(1.3, 0))
}

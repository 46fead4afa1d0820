package trainer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The tape task's 32-leaf expressions have budgets above 64 steps: its
// default configuration validates, every level trained or evaluated within
// the rollout, and -steps is bounded by MaxSteps.
func TestStepsReachTheTapeBudgets(t *testing.T) {
	c := DefaultRecipe()
	c.Task = "tape"
	c, err := WithTask(c)
	require.NoError(t, err)
	require.Greater(t, c.Steps, 64)
	require.LessOrEqual(t, c.Steps, MaxSteps)
	require.NoError(t, c.Validate())
	require.Equal(t, []int{0, 1, 2, 3}, c.TrainLevels, "the sizes 2..5; the longer ones are only evaluated")
	plain := c.Steps
	c.Steps = MaxSteps + 1
	require.ErrorContains(t, c.Validate(), "steps must be in 1..256")

	// branching=on's 32-leaf members are longer still (abs( max( , ) ): its
	// budgets stay within MaxSteps too.
	b := DefaultRecipe()
	b.Task, b.TaskSpec = "tape", "partial_credit=0.3; branching=on"
	b, err = WithTask(b)
	require.NoError(t, err)
	require.Greater(t, b.Steps, plain, "longer than the default's")
	require.LessOrEqual(t, b.Steps, MaxSteps)
	require.NoError(t, b.Validate())
}

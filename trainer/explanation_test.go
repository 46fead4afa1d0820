package trainer

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestExplanationSaysTheTargetOnlyWhenTheTaskDoes: a task's target is its
// own business; an explanation derived by stepping (task.Explain of a
// Stepwise task) has none, and its line must not claim "target 0".
func TestExplanationSaysTheTargetOnlyWhenTheTaskDoes(t *testing.T) {
	ex := task.Explanation{Name: "guess", Context: []int32{}, Tokens: []string{"4", "7"}, Reward: 1, Correct: true}
	require.NotContains(t, formatExplanation(ex), "target")
	ex.Target = "7"
	require.Contains(t, formatExplanation(ex), " target 7 ")
}

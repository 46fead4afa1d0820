package customtask

import (
	"slices"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestReverseScoresTheReversal: on drawn instances of every level, the
// digits written last first solve it, and written in their order solve
// only a palindrome.
func TestReverseScoresTheReversal(t *testing.T) {
	key := rng.NewKey(1)
	for level := range len(reverseLengths) {
		for ep := range uint32(200) {
			in := Reverse{}.Draw(key, 0, ep, rng.PurposeEval, level, task.Training)
			require.NoError(t, task.Check(Reverse{}, &in))
			digits := append([]int32(nil), in.Context[:in.NContext]...)
			reversed := slices.Clone(digits)
			slices.Reverse(reversed)
			require.Equal(t, task.Outcome{Reward: 1, Correct: true}, task.Score(Reverse{}, &in, reversed))
			require.Equal(t, slices.Equal(digits, reversed), task.Score(Reverse{}, &in, digits).Correct, "%v", digits)
		}
	}
}

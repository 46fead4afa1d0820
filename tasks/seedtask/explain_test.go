package seedtask

import (
	"strings"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestExplanationSaysWhichTargetIsRewarded: the note read "seed's sample()
// says 23" beside "target 21", unexplained; it now says which one the
// reward checks and where the quirk is told.
func TestExplanationSaysWhichTargetIsRewarded(t *testing.T) {
	tk, err := task.Open("seed", "")
	require.NoError(t, err)
	in := tk.Draw(rng.NewKey(0), 0, 0, rng.Purpose(0), 0, task.HeldOut)
	ex := task.Explain(tk, &in, make([]int32, tk.Levels()[0].Budget))
	require.True(t, strings.HasPrefix(ex.Note, "the reference's sample() target "), ex.Note)
	require.True(t, strings.HasSuffix(ex.Note, ", not rewarded: docs/tasks.md"), ex.Note)
}

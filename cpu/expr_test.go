package cpu

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/trainer"
)

// exprConfig is a short run of the expr task's default recipe on spec.
func exprConfig(t *testing.T, spec string) trainer.Config {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = "expr", spec
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
	c.Updates, c.Batch, c.Chunk, c.EvalEvery, c.EvalBatch, c.FinalEpisodes, c.Explain = 8, 48, 16, 4, 20, 30, 1
	return c
}

// TestExprLengthSplitRun: under split=length the largest size is never
// trained (not in the curriculum) and is reported as transfer, in the final
// evaluation and the exhaustive one; the periodic evaluations print the
// training split beside the held-out one; the run is the same for any
// -threads with its replays and item focus.
func TestExprLengthSplitRun(t *testing.T) {
	c := exprConfig(t, "leaves=4; split=length")
	require.Equal(t, []int{0, 1}, c.TrainLevels, "4 leaves is held out whole")
	require.Equal(t, trainer.ContextRead, c.Context)
	require.True(t, c.ItemFocus)
	c.Replay = 16 // off in the recipe, on here so that the threads' check covers the replays

	var hashes []string
	for _, threads := range []int{1, 3} {
		c.Threads = threads
		var out bytes.Buffer
		rep, err := run(t, c, &out)
		require.NoError(t, err)
		hashes = append(hashes, rep.ParamSHA256)
		require.Len(t, rep.Final.TransferSolveRate, 3)
		require.Len(t, rep.Exhaustive, 3)
		require.Nil(t, rep.Exhaustive[1].Transfer)
		require.NotNil(t, rep.Exhaustive[2].Transfer)
		require.Equal(t, 45*8, rep.Exhaustive[2].Transfer.N, "every 4-leaf member on its 8 tuples")
		require.Zero(t, rep.Exhaustive[2].Training.N)
		require.Zero(t, rep.FinalByLevel[2].Episodes, "no held-out items at 4 leaves")
		require.NotEmpty(t, rep.Evaluations[0].TrainingSplit)
		require.Contains(t, out.String(), "On transfer instances  → T0=—, T1=—, T2=")
		require.Contains(t, out.String(), "T2=— | training")
	}
	require.Equal(t, hashes[0], hashes[1])
}

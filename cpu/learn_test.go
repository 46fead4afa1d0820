package cpu

import (
	"bytes"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestRecipeLearnsFromScratch trains a reduced default recipe from random
// initialisation on a fixed seed and requires the greedy policy to solve
// levels 0 and 1 (only level 0 under -short, which CI also runs under the
// race detector).
func TestRecipeLearnsFromScratch(t *testing.T) {
	c := trainer.DefaultRecipe()
	c.Seed = 11
	c.Batch, c.Updates, c.EvalEvery, c.EvalBatch = 256, 300, 10, 100
	c.FinalEpisodes, c.Explain, c.Threads = 300, 0, 2
	c.TrainLevels = []int{0, 1}
	if testing.Short() {
		c.TrainLevels, c.Updates = []int{0}, 100
	}
	var out bytes.Buffer
	rep, err := run(t, c, &out)
	require.NoError(t, err)
	t.Logf("%d updates, final solve rates %v", rep.Updates, rep.Final.SolveRate)
	for _, s := range c.TrainLevels {
		require.GreaterOrEqualf(t, rep.Final.SolveRate[s], 0.99, "level %d not learned:\n%s", s, out.String())
	}
	require.Less(t, rep.Updates, c.Updates, "the run never reached the stop-at criterion:\n%s", out.String())
}

package cpu

import (
	"bytes"
	"testing"

	"github.com/simdrl/simdrl/internal/testsize"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestCalcReadLearns is TestCalcMemoryLevelLearns with a policy that reads
// its context (-context read): a·b and a·b+c·d, whose contexts differ in
// length, share chunks, and both reach a held-out greedy solve rate ≥ 0.99
// with the run stopped by the stop rule within the bound (under -short a·b
// alone).
func TestCalcReadLearns(t *testing.T) {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = "calc", "levels=a*b, a*b+c*d"
	if !testsize.Long() { // the memory level takes minutes to learn
		c.TaskSpec = "levels=a*b"
	}
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
	c.Context = trainer.ContextRead
	c.Seed, c.Updates, c.EvalEvery, c.EvalBatch, c.FinalEpisodes, c.Explain, c.Threads = 0, 1200, 100, 200, 500, 1, 2
	var out bytes.Buffer
	rep, err := run(t, c, &out)
	require.NoError(t, err)
	t.Logf("%d updates, held-out solve rates %v, on training instances %v", rep.Updates, rep.Final.SolveRate, rep.Final.TrainSolveRate)
	for lv, r := range rep.Final.SolveRate {
		require.GreaterOrEqualf(t, r, 0.99, "level %d (%s) not learned:\n%s", lv, rep.Levels[lv], out.String())
	}
	require.Less(t, rep.Updates, c.Updates, "the run never reached the stop-at criterion:\n%s", out.String())
}

package cpu

import (
	"bytes"
	"testing"

	"github.com/simdrl/simdrl/internal/testsize"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestCalcMemoryLevelLearns trains the default recipe on the calc task's
// first memory level, a·b+c·d (which no program without STO, M+V and M−V
// computes), beside a·b, and requires a held-out greedy solve rate ≥ 0.99
// on both (under -short, which CI also runs under the race detector, a·b
// alone).
func TestCalcMemoryLevelLearns(t *testing.T) {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = "calc", "levels=a*b, a*b+c*d"
	if !testsize.Long() { // the memory level takes minutes to learn
		c.TaskSpec = "levels=a*b"
	}
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
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

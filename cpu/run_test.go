package cpu

import (
	"bytes"
	"math"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

func shortConfig() trainer.Config {
	c := trainer.ReferenceRecipe()
	c.Updates, c.Batch, c.EvalEvery, c.EvalBatch, c.FinalEpisodes, c.Explain = 6, 40, 3, 16, 20, 1
	c.Chunk = 16
	return c
}

func TestRunIsDeterministic(t *testing.T) {
	var out1, out2 bytes.Buffer
	r1, err := run(t, shortConfig(), &out1)
	require.NoError(t, err)
	r2, err := run(t, shortConfig(), &out2)
	require.NoError(t, err)
	require.Equal(t, r1.ParamSHA256, r2.ParamSHA256)
	require.Equal(t, r1.Final, r2.Final)
	require.Equal(t, 6, r1.Updates)
	require.Len(t, r1.Evaluations, 2)
	require.Len(t, r1.Final.SolveRate, 3)
	require.Contains(t, out1.String(), "Final greedy solve rates")
	c := shortConfig()
	c.Seed = 1
	r3, err := run(t, c, &bytes.Buffer{})
	require.NoError(t, err)
	require.NotEqual(t, r1.ParamSHA256, r3.ParamSHA256)
}

func TestUpdateAllocatesNothing(t *testing.T) {
	calc := shortConfig()
	calc.Recipe, calc.Task = "default", "calc"
	calc, err := trainer.WithTask(calc)
	require.NoError(t, err)
	for _, c := range []trainer.Config{shortConfig(), calc} {
		tr, err := newRun(c)
		require.NoError(t, err)
		_, err = tr.Update()
		require.NoError(t, err)
		allocs := testing.AllocsPerRun(3, func() {
			_, err := tr.Update()
			require.NoError(t, err)
		})
		require.Zerof(t, allocs, "%s: the steady-state update allocates", c.Task)
		require.Zerof(t, testing.AllocsPerRun(3, func() { tr.evaluate(1, 30, 7, task.HeldOut) }), "%s: evaluation allocates", c.Task)
		tr.Close()
	}
}

// A non-finite loss stops training with an error naming the update, leaves
// the parameters as they were, and is never saved.
func TestNonFiniteLossStopsAndKeepsLastGood(t *testing.T) {
	c := shortConfig()
	tr, err := newRun(c)
	require.NoError(t, err)
	_, err = tr.Update()
	require.NoError(t, err)
	good := hash(t, tr)
	_ = tr.model.set(func(p []float32) error { tr.layout.VB.View(p)[0] = float32(math.NaN()); return nil }) // poison the value head
	poisoned := hash(t, tr)
	saves := 0
	rep, err := trainer.Drive(tr.tr, &bytes.Buffer{}, trainer.Options{SaveEvery: 1, Save: func() error { saves++; return nil }})
	require.ErrorContains(t, err, "update 2: the loss is NaN")
	require.Equal(t, 1, rep.Updates)
	require.Equal(t, poisoned, rep.ParamSHA256, "the failed update must not change the parameters")
	require.NotEqual(t, good, rep.ParamSHA256)
	require.Zero(t, saves, "nothing is saved after a failed update")
}

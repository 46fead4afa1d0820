package trainer

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// itemRun is a Trainer of cfg over tasktest.ItemCalc (a task whose levels are sets
// of items) driving a fakeEngine.
func newItemFakeRun(t *testing.T, cfg Config, rate func(c call, level int) float64) (*Trainer, *fakeEngine) {
	return newTaskFakeRun(t, newItemCalc(t, func(*task.Instance, []int32) bool { return true }), cfg, rate)
}

// newTaskFakeRun is a Trainer of cfg over it, a calc task of levels a*b and
// a+b (wrapped), driving a fakeEngine.
func newTaskFakeRun(t *testing.T, it task.Task, cfg Config, rate func(c call, level int) float64) (*Trainer, *fakeEngine) {
	cfg.Task, cfg.TaskSpec = "calc", "levels=a*b, a+b"
	cfg = TaskDefaults(cfg, it)
	cfg.Updates, cfg.Explain = 200, 0
	l, err := enginekit.NewLayout(cfg.Hidden, it)
	require.NoError(t, err)
	e := &fakeEngine{steps: cfg.Steps, params: make([]float32, l.Size), m: make([]float32, l.Size), v: make([]float32, l.Size),
		rate: rate, levels: len(it.Levels())}
	tr, err := New(cfg, it, e)
	require.NoError(t, err)
	return tr, e
}

// TestItemizedTasksSteerOnTrainingItems: for a task whose levels are sets
// of items, the stop rule and its confirmation read the training split's
// evaluations, never the held-out one's, which stays a test: a run whose
// held-out items all fail stops once its training items are solved, and
// one whose held-out items are all right but training ones fail never
// stops. The console prints both.
func TestItemizedTasksSteerOnTrainingItems(t *testing.T) {
	for _, c := range []struct {
		name                   string
		training, heldOut, upd float64
	}{{"training solved", 1, 0, 20}, {"only held-out solved", 0.5, 1, 200}} {
		tr, e := newItemFakeRun(t, stopConfig(), func(call call, _ int) float64 {
			if call.split == task.Training {
				return c.training
			}
			return c.heldOut
		})
		var out bytes.Buffer
		rep, err := Drive(tr, &out, Options{})
		require.NoError(t, err)
		require.Equal(t, int(c.upd), rep.Updates, c.name)
		for _, cl := range e.calls {
			if isConfirmation(cl) {
				require.Equal(t, task.Training, cl.split, "%s: confirmations play training items", c.name)
			}
		}
		p := rep.Evaluations[0]
		require.Equal(t, []float64{c.heldOut, c.heldOut}, []float64(p.SolveRate), c.name)
		require.Equal(t, []float64{c.training, c.training}, []float64(p.TrainingSplit), c.name)
		require.Contains(t, out.String(), "| training T0=", c.name)
	}
	// A task that is not itemized steers on its held-out evaluations, as before.
	tr, e := newFakeRun(stopConfig(), func(call call, _ int) float64 {
		if call.split == task.Training {
			return 1
		}
		return 0
	})
	rep, err := Drive(tr, &bytes.Buffer{}, Options{})
	require.NoError(t, err)
	require.Equal(t, 200, rep.Updates)
	require.Nil(t, rep.Evaluations[0].TrainingSplit)
	for _, cl := range e.calls {
		require.NotEqual(t, task.Transfer, cl.split)
	}
}

// TestItemizedStopNamesTheSplitItCertifies is issue 50's run in miniature:
// an Itemized task whose training items are right 998 times in 1000 and
// whose held-out ones 986. The confirmation plays the training split, so
// the run stops on 0.998, and the final evaluation's held-out headline is
// 0.986: two populations, not one policy read twice. The stop line and the
// report's confirmation say which split was certified, and the final
// evaluation's line for that split is the figure to compare.
func TestItemizedStopNamesTheSplitItCertifies(t *testing.T) {
	tr, _ := newItemFakeRun(t, stopConfig(), func(call call, _ int) float64 {
		if call.split == task.Training {
			return 0.998
		}
		return 0.986
	})
	var out bytes.Buffer
	rep, err := Drive(tr, &out, Options{})
	require.NoError(t, err)
	require.Equal(t, 20, rep.Updates)
	require.Len(t, rep.Confirmations, 1)
	cf := rep.Confirmations[0]
	require.True(t, cf.Solved)
	require.Equal(t, "training", cf.Split)
	require.Equal(t, []float64{0.998, 0.998}, []float64(cf.SolveRate))
	require.Contains(t, out.String(), "1000 training episodes per level")
	require.Contains(t, out.String(), "solved at ≥ 0.990 on training instances: stopping after update 20")
	require.Equal(t, []float64{0.986, 0.986}, []float64(rep.Final.SolveRate), "the held-out headline: not what the rule certified")
	require.Equal(t, []float64{0.998, 0.998}, []float64(rep.Final.TrainSolveRate), "the certified split, in the final evaluation")
	require.Contains(t, out.String(), "On training instances  → T0=0.998, T1=0.998 (the split the stop rule certified)")

	// A task that is not itemized certifies its held-out split, the final
	// evaluation's headline.
	plain := struct{ task.Task }{newItemCalc(t, nil).Task} // calc without its subsets
	tr, _ = newTaskFakeRun(t, plain, stopConfig(), func(call, int) float64 { return 1 })
	out.Reset()
	rep, err = Drive(tr, &out, Options{})
	require.NoError(t, err)
	require.Equal(t, "held-out", rep.Confirmations[0].Split)
	require.Contains(t, out.String(), "solved at ≥ 0.990 on held-out instances")
	require.Contains(t, out.String(), "(held-out instances; the split the stop rule certified)")
}

package trainer

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// echoTask's instances show one digit d; a program is correct when its first
// token is d. Level 0 holds out d ∈ {0, 1, 2}, trains on 3..9; subset "odd"
// is the odd digits, "zero" the digit 0.
type echoTask struct{ task.Task }

func (echoTask) Name() string { return "echo" }
func (echoTask) Levels() []task.Level {
	return []task.Level{{Name: "echo", Context: 1, Budget: 1, Shortest: 1}}
}
func (echoTask) SubsetNames() []string { return []string{"odd", "zero"} }
func (echoTask) Subsets(in *task.Instance) uint32 {
	b := uint32(in.Context[0] % 2)
	if in.Context[0] == 0 {
		b |= 2
	}
	return b
}
func (echoTask) Instances(level int, split task.Split, max int) []task.Instance {
	var out []task.Instance
	for d := int32(0); d < 10; d++ {
		if (d < 3) == (split == task.HeldOut) && (max == 0 || len(out) < max) {
			out = append(out, task.Instance{NContext: 1, Budget: 1, Context: [task.MaxContext]int32{d}})
		}
	}
	return out
}
func (echoTask) Score(in *task.Instance, p []int32) task.Outcome {
	ok := p[0] == in.Context[0]
	return task.Outcome{Correct: ok, Reward: map[bool]float64{true: 1}[ok]}
}
func (echoTask) Draw(rng.Key, uint32, uint32, rng.Purpose, int, task.Split) task.Instance {
	panic("not drawn")
}

// echoEngine answers every digit but 1 and 7 (so the held-out rate is 2/3
// and odd's 0/1) in batches it records.
type echoEngine struct {
	fakeEngine
	batches []int
}

func (e *echoEngine) GreedyPrograms(ins []task.Instance) ([]int32, error) {
	e.batches = append(e.batches, len(ins))
	out := make([]int32, len(ins)*e.steps)
	for i, in := range ins {
		out[i*e.steps] = in.Context[0]
		if in.Context[0] == 1 || in.Context[0] == 7 {
			out[i*e.steps] = 9 - in.Context[0]
		}
	}
	return out, nil
}

func TestExhaustiveCountsEveryInstanceBySubset(t *testing.T) {
	e := &echoEngine{fakeEngine: fakeEngine{steps: 2}}
	tr := &Trainer{task: echoTask{}, cfg: Config{Steps: 2}, e: e}
	var plan bytes.Buffer
	ls, err := exhaustive(tr, MaxExhaustive, planTo(&plan))
	require.NoError(t, err)
	require.Equal(t, "Exhaustive evaluation: 1 level × 2 splits, 10 instances (each level's splits whole, at most 20000 instances each)\n", plan.String())
	require.Equal(t, []task.LevelTally{{
		Level:    "echo",
		HeldOut:  task.Tally{N: 3, Solved: 2},
		Training: task.Tally{N: 7, Solved: 6},
		Subsets:  []task.Tally{{Name: "odd", N: 1, Solved: 0}, {Name: "zero", N: 1, Solved: 1}},
		Listed:   true,
	}}, ls)
	var out bytes.Buffer
	printExhaustive(&out, echoTask{}, ls, MaxExhaustive)
	require.Contains(t, out.String(), "0.6667 of 3 (0.8571 of 7) odd 0.0000 of 1 zero 1.0000 of 1")
}

// echoTransferTask is echoTask with a Transfer split (task.Itemized): the
// digits 8 and 9, taken from the training split.
type echoTransferTask struct{ echoTask }

func (echoTransferTask) Items(level int, split task.Split) int {
	return map[task.Split]int{task.Training: 5, task.HeldOut: 3, task.Transfer: 2}[split]
}
func (echoTransferTask) DrawItem(rng.Key, uint32, uint32, rng.Purpose, int, task.Split, int) task.Instance {
	panic("not drawn")
}
func (echoTransferTask) Verify(*task.Instance, []int32) bool { return false }
func (echoTransferTask) Instances(level int, split task.Split, max int) []task.Instance {
	var out []task.Instance
	for d := int32(0); d < 10; d++ {
		sp := task.Training
		switch {
		case d < 3:
			sp = task.HeldOut
		case d >= 8:
			sp = task.Transfer
		}
		if sp == split {
			out = append(out, task.Instance{NContext: 1, Budget: 1, Context: [task.MaxContext]int32{d}})
		}
	}
	return out
}

// A Transfer split is counted by subset too (TransferSubsets), and printed
// after the held-out subsets.
func TestExhaustiveCountsTransferBySubset(t *testing.T) {
	e := &echoEngine{fakeEngine: fakeEngine{steps: 2}}
	tr := &Trainer{task: echoTransferTask{}, cfg: Config{Steps: 2}, e: e}
	var plan bytes.Buffer
	ls, err := exhaustive(tr, MaxExhaustive, planTo(&plan))
	require.NoError(t, err)
	require.Len(t, ls, 1)
	require.Equal(t, &task.Tally{N: 2, Solved: 2}, ls[0].Transfer)
	require.Equal(t, []task.Tally{{Name: "odd", N: 1, Solved: 1}, {Name: "zero"}}, ls[0].TransferSubsets)
	var out bytes.Buffer
	printExhaustive(&out, echoTransferTask{}, ls, MaxExhaustive)
	require.Contains(t, out.String(), "transfer 1.0000 of 2 odd 0.0000 of 1 zero 1.0000 of 1 [transfer: odd 1.0000 of 1 zero none]")
}

func TestExhaustiveSkipsTasksThatCannotList(t *testing.T) {
	tr := &Trainer{task: seedtask.Seed(), cfg: Config{Steps: 6}, e: &fakeEngine{steps: 6}}
	var plan bytes.Buffer
	ls, err := exhaustive(tr, MaxExhaustive, planTo(&plan))
	require.NoError(t, err)
	require.Nil(t, ls)
	require.Empty(t, plan.String())
}

// The exhaustive evaluation's bound (Options.Exhaustive, -exhaustive): a
// split larger than the bound is left out and not played (the level's
// others are), a level with no split within it is not listed, and
// a bound of 0 plays nothing and says nothing.
func TestExhaustiveIsBounded(t *testing.T) {
	for _, c := range []struct {
		limit   int
		batches []int
		plan    string
	}{
		{7, []int{3, 7}, "Exhaustive evaluation: 1 level × 2 splits, 10 instances (each level's splits whole, at most 7 instances each)\n"},
		{6, []int{3}, "Exhaustive evaluation: 1 level × 1 split, 3 instances (each level's splits whole, at most 6 instances each; 1 split with more left out)\n"},
		{2, nil, "Exhaustive evaluation: none (each level's splits whole, at most 2 instances each; 1 level with more left out)\n"},
		{0, nil, ""},
	} {
		e := &echoEngine{fakeEngine: fakeEngine{steps: 2}}
		tr := &Trainer{task: echoTask{}, cfg: Config{Steps: 2}, e: e}
		var plan bytes.Buffer
		ls, err := exhaustive(tr, c.limit, planTo(&plan))
		require.NoError(t, err)
		require.Equal(t, c.batches, e.batches, "limit %d: the instances played", c.limit)
		require.Equal(t, c.plan, plan.String())
		if c.limit == 0 {
			require.Nil(t, ls)
			continue
		}
		require.Len(t, ls, 1)
		require.Equal(t, c.batches != nil, ls[0].Listed)
		var out bytes.Buffer
		printExhaustive(&out, echoTask{}, ls, c.limit)
		if !ls[0].Listed {
			require.Contains(t, out.String(), "(echo): more than 2 instances in a split, not listed")
		}
	}
	// Options.Exhaustive: 0 is the default, negative none, at most MaxExhaustive.
	require.Equal(t, MaxExhaustive, exhaustiveLimit(0))
	require.Zero(t, exhaustiveLimit(-1))
	require.Equal(t, 5, exhaustiveLimit(5))
	require.Equal(t, MaxExhaustive, exhaustiveLimit(MaxExhaustive+1))
}

// echoInstances are n instances of echoTask, digit i mod 10 for the i-th.
func echoInstances(n int) []task.Instance {
	ins := make([]task.Instance, n)
	for i := range ins {
		ins[i] = task.Instance{NContext: 1, Context: [task.MaxContext]int32{int32(i % 10)}}
	}
	return ins
}

func TestSolvedGreedilyPlaysInBatches(t *testing.T) {
	e := &echoEngine{fakeEngine: fakeEngine{steps: 1}}
	tr := &Trainer{task: echoTask{}, cfg: Config{Steps: 1}, e: e}
	ins := echoInstances(greedyBatch + 5)
	solved, err := tr.solvedGreedily(ins)
	require.NoError(t, err)
	require.Equal(t, []int{greedyBatch, 5}, e.batches)
	n := 0
	for i, s := range solved {
		require.Equal(t, i%10 != 1 && i%10 != 7, s, "instance %d", i)
		if s {
			n++
		}
	}
	require.Equal(t, len(ins)-2*((len(ins)+8)/10), n)
}

// solverEngine is an echoEngine that is also a greedySolver: it says the
// same of every instance as its programs do, and records its batches apart.
type solverEngine struct {
	echoEngine
	solvedBatches []int
}

func (e *solverEngine) GreedySolved(ins []task.Instance, solved []bool) error {
	e.solvedBatches = append(e.solvedBatches, len(ins))
	for i, in := range ins {
		solved[i] = in.Context[0] != 1 && in.Context[0] != 7
	}
	return nil
}

// TestSolvedGreedilyAsksAGreedySolver: an engine that is a greedySolver is
// asked for its flags, in the same batches, and never for programs; the
// flags are what the programs would have scored.
func TestSolvedGreedilyAsksAGreedySolver(t *testing.T) {
	e := &solverEngine{echoEngine: echoEngine{fakeEngine: fakeEngine{steps: 1}}}
	tr := &Trainer{task: echoTask{}, cfg: Config{Steps: 1}, e: e}
	ins := echoInstances(greedyBatch + 5)
	solved, err := tr.solvedGreedily(ins)
	require.NoError(t, err)
	require.Equal(t, []int{greedyBatch, 5}, e.solvedBatches)
	require.Empty(t, e.batches, "GreedyPrograms was called")
	for i, s := range solved {
		require.Equal(t, i%10 != 1 && i%10 != 7, s, "instance %d", i)
	}
}

// planTo is a Reporter that writes the exhaustive evaluation's plan to w,
// as the console does.
func planTo(w io.Writer) *Reporter {
	return &Reporter{Enumerating: func(plan string) { fmt.Fprintln(w, plan) }}
}

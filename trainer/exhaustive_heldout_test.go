package trainer

import (
	"bytes"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// endlessTrainingTask is echoTask with a training split too large to list
// (an endless generator: it fills whatever bound it is asked for) and the
// same three held-out digits.
type endlessTrainingTask struct{ echoTask }

func (endlessTrainingTask) Instances(level int, split task.Split, max int) []task.Instance {
	if split == task.HeldOut {
		return echoTask{}.Instances(level, split, max)
	}
	out := make([]task.Instance, max)
	for i := range out {
		out[i] = task.Instance{NContext: 1, Budget: 1, Context: [task.MaxContext]int32{3 + int32(i%7)}}
	}
	return out
}

// A level whose training split cannot be listed still has its held-out
// split played whole (issue 53): only the training split is left out, and
// the console says so.
func TestExhaustivePlaysTheHeldOutSplitAlone(t *testing.T) {
	e := &echoEngine{fakeEngine: fakeEngine{steps: 2}}
	tr := &Trainer{task: endlessTrainingTask{}, cfg: Config{Steps: 2}, e: e}
	var plan bytes.Buffer
	ls, err := exhaustive(tr, MaxExhaustive, planTo(&plan))
	require.NoError(t, err)
	require.Equal(t, []int{3}, e.batches, "only the held-out split is played")
	require.Equal(t, "Exhaustive evaluation: 1 level × 1 split, 3 instances (each level's splits whole, at most 20000 instances each; 1 split with more left out)\n", plan.String())
	require.Equal(t, []task.LevelTally{{
		Level:    "echo",
		HeldOut:  task.Tally{N: 3, Solved: 2},
		Subsets:  []task.Tally{{Name: "odd", N: 1, Solved: 0}, {Name: "zero", N: 1, Solved: 1}},
		Listed:   true,
		Unlisted: []string{task.Training.String()},
	}}, ls)
	var out bytes.Buffer
	printExhaustive(&out, endlessTrainingTask{}, ls, MaxExhaustive)
	require.Contains(t, out.String(), "(echo): 0.6667 of 3 (training not listed) odd 0.0000 of 1 zero 1.0000 of 1")
}

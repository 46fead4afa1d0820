package policy_test

import (
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// fragile is a task that panics once armed: in Levels (which starting an
// episode reads) or in Score (which its Env calls at an episode's end).
type fragile struct {
	task.Task
	inLevels, inScore bool
}

func (f *fragile) Levels() []task.Level {
	if f.inLevels {
		panic("fragile levels")
	}
	return f.Task.Levels()
}

func (f *fragile) Score(in *task.Instance, program []int32) task.Outcome {
	if f.inScore {
		panic("fragile score")
	}
	return task.Score(f.Task, in, program)
}

// TestTaskPanicsAreErrors: a panic in the task's code while a session
// starts or while Play plays is an error that names the task, not a crash.
func TestTaskPanicsAreErrors(t *testing.T) {
	path, _, _ := trained(t, kinds[0]) // calc, no observations: scored at the end
	f, err := checkpoint.ReadFile(path)
	require.NoError(t, err)
	inner, err := task.Open("calc", "levels=a*b, a*b+c*d")
	require.NoError(t, err)
	tk := &fragile{Task: inner}
	p, err := policy.NewWithTask(f, tk)
	require.NoError(t, err)
	in := draw(inner, 1)[0]
	s := p.NewSession()
	require.NoError(t, s.Start(&in, policy.Pick{}))

	tk.inLevels = true
	err = s.Start(&in, policy.Pick{})
	require.ErrorContains(t, err, "panic while running the calc task")
	require.ErrorContains(t, err, "fragile levels")
	_, err = s.Act(task.NoObservation)
	require.EqualError(t, err, "policy: Act before Start")
	require.ErrorContains(t, p.Play([]task.Instance{in}, nil, make([]policy.Result, 1)), "fragile levels")

	tk.inLevels, tk.inScore = false, true
	require.ErrorContains(t, p.Play([]task.Instance{in}, nil, make([]policy.Result, 1)), "fragile score")
	tk.inScore = false
	require.NoError(t, p.Play([]task.Instance{in}, nil, make([]policy.Result, 1)))
}

package seedtask

import (
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// seedEnv steps the seed's episodes with seed.Episode, the rules seed.Run
// runs: rewards bit for bit, paid at ANS.
type seedEnv struct{ eps []seed.Episode }

func (*seedTask) NewEnv(rows int) task.Env { return &seedEnv{eps: make([]seed.Episode, rows)} }

func (e *seedEnv) Rows() int            { return len(e.eps) }
func (*seedEnv) Observations() int      { return 0 }
func (e *seedEnv) Correct(row int) bool { return e.eps[row].Correct() }
func (e *seedEnv) Reset(row int, in *task.Instance) int32 {
	e.eps[row].Reset(envTask(in))
	return task.NoObservation
}

func (e *seedEnv) Step(actions []int32, out task.Transition) { taskkit.StepRows(e.eps, actions, out) }

// ReportsTruncation: an episode MaxSteps cut ended without ANS.
func (*seedEnv) ReportsTruncation() bool { return true }

var (
	_ task.Stepper            = (*seedTask)(nil)
	_ task.TruncationReporter = (*seedEnv)(nil)
)

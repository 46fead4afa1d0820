package taskkit

import (
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/task"
)

// CalcEnv steps calc's episodes with calc.Episode, the rules calc.Run runs:
// the reward, partial credit included, is paid at the answer. When the task
// observes, every step writes each row's observation of its machine after
// the token (the final machine's once the row is done), and Reset the start
// machine's.
type CalcEnv struct {
	eps     []calc.Episode
	credit  float64
	ops     []interp.Op
	observe bool
}

// NewCalcEnv is rows episodes on the machine ops with partial credit
// credit, observing the signs of the machine when observe is set.
func NewCalcEnv(rows int, credit float64, ops []interp.Op, observe bool) *CalcEnv {
	return &CalcEnv{eps: make([]calc.Episode, rows), credit: credit, ops: ops, observe: observe}
}

func (e *CalcEnv) Rows() int { return len(e.eps) }
func (e *CalcEnv) Observations() int {
	if e.observe {
		return calc.NumObservations
	}
	return 0
}
func (e *CalcEnv) Correct(row int) bool { return e.eps[row].Outcome().Correct }

func (e *CalcEnv) Reset(row int, in *task.Instance) int32 {
	c := ToCalc(in)
	e.eps[row].ResetOps(&c, e.credit, e.ops)
	if e.observe {
		return e.eps[row].Observation()
	}
	return task.NoObservation
}

func (e *CalcEnv) Step(actions []int32, out task.Transition) {
	if !e.observe {
		StepRows(e.eps, actions, out)
		return
	}
	for r, a := range actions {
		ep := &e.eps[r]
		out.Reward[r] = ep.Step(a)
		out.Obs[r] = ep.Observation()
		out.Done[r] = ep.Done()
		if out.Truncated != nil {
			out.Truncated[r] = ep.Truncated()
		}
	}
}

// ReportsTruncation reports true: an episode the budget cut ended without
// an answer.
func (e *CalcEnv) ReportsTruncation() bool { return true }

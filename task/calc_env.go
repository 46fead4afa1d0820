package task

import (
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
)

// calcEnv steps calc's episodes with calc.Episode, the rules calc.Run runs:
// the reward, partial credit included, is paid at the answer. When the task
// observes, every step writes each row's observation of its machine after
// the token (the final machine's once the row is done), and Reset the start
// machine's.
type calcEnv struct {
	eps     []calc.Episode
	credit  float64
	ops     []interp.Op
	observe bool
}

func (t *calcTask) NewEnv(rows int) Env {
	return &calcEnv{eps: make([]calc.Episode, rows), credit: t.partialCredit, ops: t.ops, observe: t.observation != interp.ObserveNone}
}

func (e *calcEnv) Rows() int { return len(e.eps) }
func (e *calcEnv) Observations() int {
	if e.observe {
		return calc.NumObservations
	}
	return 0
}
func (e *calcEnv) Correct(row int) bool { return e.eps[row].Outcome().Correct }

func (e *calcEnv) Reset(row int, in *Instance) int32 {
	c := toCalc(in)
	e.eps[row].ResetOps(&c, e.credit, e.ops)
	if e.observe {
		return e.eps[row].Observation()
	}
	return NoObservation
}

func (e *calcEnv) Step(actions []int32, out Transition) {
	if !e.observe {
		stepRows(e.eps, actions, out)
		return
	}
	for r, a := range actions {
		ep := &e.eps[r]
		out.Reward[r] = ep.Step(a)
		out.Obs[r] = ep.Observation()
		out.Done[r] = ep.Done()
	}
}

var _ Stepper = (*calcTask)(nil)

package task

import "github.com/simdrl/simdrl/env/calc"

// calcEnv steps calc's episodes with calc.Episode, the rules calc.Run runs:
// the reward, partial credit included, is paid at the answer.
type calcEnv struct {
	eps    []calc.Episode
	credit float64
}

func (t *calcTask) NewEnv(rows int) Env {
	return &calcEnv{eps: make([]calc.Episode, rows), credit: t.partialCredit}
}

func (e *calcEnv) Rows() int            { return len(e.eps) }
func (*calcEnv) Observations() int      { return 0 }
func (e *calcEnv) Correct(row int) bool { return e.eps[row].Outcome().Correct }

func (e *calcEnv) Reset(row int, in *Instance) int32 {
	c := toCalc(in)
	e.eps[row].Reset(&c, e.credit)
	return NoObservation
}

func (e *calcEnv) Step(actions []int32, out Transition) { stepRows(e.eps, actions, out) }

var _ Stepper = (*calcTask)(nil)

package task

import "github.com/simdrl/simdrl/env/seed"

// seedEnv steps the seed's episodes with seed.Episode, the rules seed.Run
// runs: rewards bit for bit, paid at ANS.
type seedEnv struct{ eps []seed.Episode }

func (*seedTask) NewEnv(rows int) Env { return &seedEnv{eps: make([]seed.Episode, rows)} }

func (e *seedEnv) Rows() int            { return len(e.eps) }
func (*seedEnv) Observations() int      { return 0 }
func (e *seedEnv) Correct(row int) bool { return e.eps[row].Correct() }
func (e *seedEnv) Reset(row int, in *Instance) int32 {
	e.eps[row].Reset(envTask(in))
	return NoObservation
}

func (e *seedEnv) Step(actions []int32, out Transition) { stepRows(e.eps, actions, out) }

var _ Stepper = (*seedTask)(nil)

package cpu

import (
	"fmt"

	"github.com/simdrl/simdrl/trainer"
)

// Params is the model's flat parameter buffer, in state_dict order
// (trainer.Engine); read it, never write it (the derived state would not
// follow).
func (e *Engine) Params() ([]float32, error) { return e.model.params, nil }

// SetParams replaces the parameters and recomputes what derives from them.
func (e *Engine) SetParams(params []float32) error {
	if len(params) != len(e.model.params) {
		return fmt.Errorf("cpu: %d parameters for a model of %d", len(params), len(e.model.params))
	}
	return e.model.set(func(p []float32) error { copy(p, params); return nil })
}

// Moments are Adam's moments (views, read-only) and its step count.
func (e *Engine) Moments() (m, v []float32, step int, err error) {
	return e.opt.m, e.opt.v, e.opt.steps, nil
}

// SetMoments replaces Adam's moments and step count (-resume).
func (e *Engine) SetMoments(m, v []float32, step int) error {
	if len(m) != len(e.opt.m) || len(v) != len(e.opt.v) {
		return fmt.Errorf("cpu: moments of %d and %d for a model of %d", len(m), len(v), len(e.opt.m))
	}
	copy(e.opt.m, m)
	copy(e.opt.v, v)
	e.opt.steps = step
	return nil
}

var _ trainer.Engine = (*Engine)(nil)

package cpu

import (
	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
)

// Checkpoint captures everything needed to continue bit-identically
// (trainer.Engine); the file is the same on every engine.
func (e *Engine) Checkpoint() (*checkpoint.File, error) {
	return trainer.BuildCheckpoint(e.cfg, e.layout, e.model.params, e.opt.m, e.opt.v, e.update, e.opt.steps, e.cur), nil
}

// Restore continues from a checkpoint of this configuration (trainer.Engine):
// parameters, Adam's moments and step, update counter, curriculum. A refused
// file changes nothing.
func (e *Engine) Restore(f *checkpoint.File) error {
	return e.model.set(func(p []float32) error {
		update, steps, err := trainer.RestoreCheckpoint(f, e.layout, p, e.opt.m, e.opt.v, e.cur)
		if err == nil {
			e.update, e.opt.steps = update, steps
		}
		return err
	})
}

// LoadWeights replaces the parameters by f's, checking every name, shape and
// value; the optimiser and the training state are left as they are (-load).
func (e *Engine) LoadWeights(f *checkpoint.File) error {
	return e.model.set(func(p []float32) error { return enginekit.LoadParams(f, e.layout, p) })
}

var _ trainer.Engine = (*Engine)(nil)

//go:build cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// gpuRun is a GPU engine and the trainer.Trainer that drives it, as the
// tests step them; hostRun is the same for the CPU engine the GPU is
// compared with.
type gpuRun struct {
	*Engine
	tr *trainer.Trainer
}

type hostRun struct {
	*cpu.Engine
	tr *trainer.Trainer
}

// newGPURun builds a GPU engine of cfg (NewEngine) and its Trainer.
func newGPURun(cfg trainer.Config) (*gpuRun, error) {
	g, err := NewEngine(cfg)
	if err != nil {
		return nil, err
	}
	tr, err := trainer.New(cfg, g.task, g)
	if err != nil {
		g.Close()
		return nil, err
	}
	return &gpuRun{g, tr}, nil
}

// newHostRun builds a CPU engine of cfg and its Trainer.
func newHostRun(cfg trainer.Config) (*hostRun, error) {
	e, err := cpu.New(cfg)
	if err != nil {
		return nil, err
	}
	tr, err := trainer.New(cfg, e.Task(), e)
	if err != nil {
		e.Close()
		return nil, err
	}
	return &hostRun{e, tr}, nil
}

func (r *gpuRun) Update() (trainer.UpdateStats, error)  { return r.tr.Update() }
func (r *gpuRun) Updates() int                          { return r.tr.Updates() }
func (r *gpuRun) Checkpoint() (*checkpoint.File, error) { return r.tr.Checkpoint() }
func (r *gpuRun) Restore(f *checkpoint.File) error      { return r.tr.Restore(f) }
func (r *gpuRun) LoadWeights(f *checkpoint.File) error  { return r.tr.LoadWeights(f) }
func (r *gpuRun) ParamSHA256() (string, error)          { return paramSHA256(r.Engine) }

func (r *hostRun) Update() (trainer.UpdateStats, error)  { return r.tr.Update() }
func (r *hostRun) Updates() int                          { return r.tr.Updates() }
func (r *hostRun) Checkpoint() (*checkpoint.File, error) { return r.tr.Checkpoint() }
func (r *hostRun) Restore(f *checkpoint.File) error      { return r.tr.Restore(f) }
func (r *hostRun) LoadWeights(f *checkpoint.File) error  { return r.tr.LoadWeights(f) }
func (r *hostRun) ParamSHA256() (string, error)          { return paramSHA256(r.Engine) }

// Params is the CPU engine's parameter buffer (read it only).
func (r *hostRun) Params() []float32 { p, _ := r.Engine.Params(); return p }

// paramSHA256 is the hash a report gives e's parameters.
func paramSHA256(e trainer.Engine) (string, error) {
	p, err := e.Params()
	if err != nil {
		return "", err
	}
	return enginekit.HashParams(p), nil
}

// trainerOf is a Trainer of cfg stepping the test's engine e on d (the
// Engine around them is never closed: the test owns both).
func trainerOf(t testing.TB, d *Device, e *engine, cfg trainer.Config) *trainer.Trainer {
	g := &Engine{cfg: cfg, task: e.task, d: d, e: e, params: make([]float32, e.l.Size)}
	tr, err := trainer.New(cfg, e.task, g)
	require.NoError(t, err)
	return tr
}

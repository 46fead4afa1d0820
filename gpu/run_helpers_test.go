//go:build cgo

package gpu

import (
	"math"
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

// updater is a run that updates: a hostRun, a gpuRun, or a Trainer.
type updater interface {
	Update() (trainer.UpdateStats, error)
}

// updatesMatch runs updates first..last on the CPU's run host and the GPU's
// run g side by side and requires the GPU's loss, mean reward and gradient
// norm within rounding of the CPU's: 1e-4 at the first update, 2e-2 after
// (sampling near a CDF boundary may pick another action once rounding
// differs); with sameFirst, the first update's rewards and solved episodes
// are the CPU's exactly.
func updatesMatch(t *testing.T, label string, host, g updater, first, last int, sameFirst bool) {
	t.Helper()
	for u := first; u <= last; u++ {
		want, err := host.Update()
		require.NoError(t, err)
		got, err := g.Update()
		require.NoError(t, err)
		t.Logf("%s update %d: loss CPU %.6f GPU %.6f, reward %.4f %.4f, solved %.3f %.3f, norm %.6f %.6f", label, u,
			want.Loss.Total, got.Loss.Total, want.MeanReward, got.MeanReward, want.SolveRate, got.SolveRate, want.GradNorm, got.GradNorm)
		tol := 1e-4
		if u > first {
			tol = 2e-2
		}
		require.InDelta(t, want.Loss.Total, got.Loss.Total, tol*math.Max(1, math.Abs(want.Loss.Total)), "%s update %d loss", label, u)
		require.InDelta(t, want.MeanReward, got.MeanReward, math.Max(tol, 0.01), "%s update %d reward", label, u)
		require.InDelta(t, want.GradNorm, got.GradNorm, tol*math.Max(1, want.GradNorm)*5, "%s update %d grad norm", label, u)
		if sameFirst && u == first {
			require.Equal(t, want.MeanReward, got.MeanReward, "%s update %d: the same rewards", label, u)
			require.Equal(t, want.SolveRate, got.SolveRate, "%s update %d: the same solved episodes", label, u)
		}
	}
}

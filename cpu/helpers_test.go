package cpu

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// testRun is a CPU engine and the trainer.Trainer that drives it, as the
// tests step them: the engine's methods and internals, the trainer's
// updates, counter and checkpoints.
type testRun struct {
	*Engine
	tr *trainer.Trainer
}

// newRun builds a CPU engine of cfg (New) and its Trainer.
func newRun(cfg trainer.Config) (*testRun, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	tr, err := trainer.New(cfg, e.task, e)
	if err != nil {
		e.Close()
		return nil, err
	}
	return &testRun{e, tr}, nil
}

func (r *testRun) Update() (trainer.UpdateStats, error)  { return r.tr.Update() }
func (r *testRun) Updates() int                          { return r.tr.Updates() }
func (r *testRun) Checkpoint() (*checkpoint.File, error) { return r.tr.Checkpoint() }
func (r *testRun) Restore(f *checkpoint.File) error      { return r.tr.Restore(f) }
func (r *testRun) LoadWeights(f *checkpoint.File) error  { return r.tr.LoadWeights(f) }

// Params is the engine's parameter buffer (read it only).
func (r *testRun) Params() []float32 { return r.model.params }

// ParamSHA256 is the hash a report gives the parameters.
func (r *testRun) ParamSHA256() (string, error) { return enginekit.HashParams(r.model.params), nil }

// run trains cfg on a fresh engine through the loop, as the command does
// without its outputs.
func run(t testing.TB, cfg trainer.Config, out io.Writer) (*trainer.Report, error) {
	r, err := newRun(cfg)
	require.NoError(t, err)
	return trainer.Drive(r.tr, out, trainer.Options{})
}

// resume builds an engine of cfg and restores f into it.
func resume(f *checkpoint.File, cfg trainer.Config) (*testRun, error) {
	r, err := newRun(cfg)
	if err != nil {
		return nil, err
	}
	if err := r.Restore(f); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

func hash(t testing.TB, e *testRun) string {
	h, err := e.ParamSHA256()
	require.NoError(t, err)
	return h
}

func snapshot(t testing.TB, e *testRun) *checkpoint.File {
	f, err := e.Checkpoint()
	require.NoError(t, err)
	return f
}

func programs(t testing.TB, e *testRun, tasks []task.Instance) []int32 {
	p, err := e.GreedyPrograms(tasks)
	require.NoError(t, err)
	return p
}

// savedState is the training state a checkpoint of r now records (the
// curriculum's, from outside the trainer).
func savedState(t testing.TB, r *testRun) map[string]any {
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(snapshot(t, r).Metadata["state"]), &st))
	return st
}

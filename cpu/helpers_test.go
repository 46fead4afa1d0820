package cpu

import (
	"io"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// run trains cfg on a fresh engine through the loop, as the command does
// without its outputs.
func run(t testing.TB, cfg trainer.Config, out io.Writer) (*trainer.Report, error) {
	e, err := New(cfg)
	require.NoError(t, err)
	return trainer.Drive(e, out, trainer.Options{})
}

// resume builds an engine of cfg and restores f into it.
func resume(f *checkpoint.File, cfg trainer.Config) (*Engine, error) {
	e, err := New(cfg)
	if err != nil {
		return nil, err
	}
	if err := e.Restore(f); err != nil {
		e.Close()
		return nil, err
	}
	return e, nil
}

func hash(t testing.TB, e *Engine) string {
	h, err := e.ParamSHA256()
	require.NoError(t, err)
	return h
}

func snapshot(t testing.TB, e *Engine) *checkpoint.File {
	f, err := e.Checkpoint()
	require.NoError(t, err)
	return f
}

func programs(t testing.TB, e *Engine, tasks []task.Instance) []int32 {
	p, err := e.GreedyPrograms(tasks)
	require.NoError(t, err)
	return p
}

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGPURefusesReading: a reading policy (-context read) is refused in one
// line before any device is opened: NewWithTask says so with or without a
// GPU, with or without cgo. The bag passes.
func TestGPURefusesReading(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Task = "calc"
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	require.NoError(t, checkConfig(cfg))
	cfg.Context = trainer.ContextBag
	require.NoError(t, checkConfig(cfg))
	cfg.Context = trainer.ContextRead
	const want = "gpu: the CUDA kernels do not read the context (-context read): they start from the bag of its tokens; train it on the CPU"
	require.EqualError(t, checkConfig(cfg), want)
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	_, err = NewWithTask(cfg, tk)
	require.EqualError(t, err, want)
}

//go:build cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGPURefusesTheTapeTask: the tape task is Go code the kernels cannot
// run (no op table, its own context end and observations), so it is
// refused before the device is opened, with one line that names it and says where it
// runs.
func TestGPURefusesTheTapeTask(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Task = "tape"
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	tk, err := task.Open("tape", cfg.TaskSpec)
	require.NoError(t, err)
	_, err = NewWithTask(cfg, tk) // refused before the device is opened: no GPU needed
	require.Error(t, err)
	require.Contains(t, err.Error(), "task tape")
	require.Contains(t, err.Error(), "train it on the CPU")
	require.NotContains(t, err.Error(), "\n")
}

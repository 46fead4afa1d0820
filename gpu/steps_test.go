//go:build cgo

package gpu

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestLongRolloutsRefused: trainer.MaxSteps was raised for the tape task, a
// CPU task; the GPU's kernels have run no rollout longer than MaxSteps on a
// device, so a calc run asking for more is refused before the device opens.
func TestLongRolloutsRefused(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Task = "calc"
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	cfg.Steps = MaxSteps + 1
	require.LessOrEqual(t, cfg.Steps, trainer.MaxSteps, "a config the trainer accepts")
	require.NoError(t, cfg.Validate())
	_, err = New(cfg)
	var fe *trainer.FieldError
	require.Truef(t, errors.As(err, &fe), "%v", err)
	require.Equal(t, "steps", fe.Field)
	require.Contains(t, fe.Problem, "at most 64 on the GPU")
}

//go:build cgo

package gpu

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestHostMemoryRefusedBeforeTheDevice: a run whose host buffers (the
// engine's records and read-backs, the trainer's record of every episode
// and replayed episodes) exceed the available memory is a
// trainer.ResourceError naming the flag that drives them, before any device
// is opened.
func TestHostMemoryRefusedBeforeTheDevice(t *testing.T) {
	saved := enginekit.AvailableMemory
	defer func() { enginekit.AvailableMemory = saved }()
	expr := trainer.DefaultRecipe()
	expr.Task = "expr"
	expr, err := trainer.WithTask(expr)
	require.NoError(t, err)
	for _, c := range []struct {
		batch, replay int
		knob          string
	}{{1 << 22, 0, "batch"}, {192, 1 << 22, "replay"}} {
		cfg := expr
		cfg.Batch, cfg.Replay = c.batch, c.replay
		tk, err := cfg.OpenTask()
		require.NoError(t, err)
		l, err := enginekit.NewLayout(cfg.Hidden, tk)
		require.NoError(t, err)
		m := hostMemory(cfg, tk, l)
		require.Greater(t, m.Total(), float64(c.batch+c.replay)*400, "at least the trainer's episodes")
		enginekit.AvailableMemory = func() float64 { return m.Total() / 2 }
		_, err = New(cfg)
		var re *trainer.ResourceError
		require.Truef(t, errors.As(err, &re), "%+v: %v", c, err)
		require.Equal(t, c.knob, re.Knob)
		require.Equal(t, m.Total()/2, re.Have, "the host's check, not the device's")
	}
}

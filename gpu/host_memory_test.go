//go:build cgo

package gpu

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/gpu/internal/record"
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

// TestGPUMemoryChargesEvalBatchOnlyWithEvaluations: without periodic
// evaluations (-eval-every 0) the GPU engine's buffers and its memory
// check leave -eval-batch out, as the CPU's do (L10: an eval batch no run
// plays was charged, and a run refused for it); with them it is charged,
// and named when it is the largest share.
func TestGPUMemoryChargesEvalBatchOnlyWithEvaluations(t *testing.T) {
	saved := enginekit.AvailableMemory
	defer func() { enginekit.AvailableMemory = saved }()
	cfg := calcConfig(t, "", 0.3)
	cfg.Batch, cfg.FinalEpisodes, cfg.Explain, cfg.EvalEvery = 64, 100, 5, 0
	small, big := cfg, cfg
	small.EvalBatch, big.EvalBatch = 1, trainer.MaxEpisodes
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	require.Equal(t, 100, maxEpisodes(big), "the final evaluation's episodes, not the eval batch's")
	require.Equal(t, hostMemory(small, tk, l), hostMemory(big, tk, l))
	cpuSmall, _ := cpu.Memory(small)
	cpuBig, _ := cpu.Memory(big)
	require.Less(t, cpuBig-cpuSmall, float64(4<<20), "the CPU charges an eval batch it never plays next to nothing")

	evaluating := big
	evaluating.EvalEvery = 5
	require.Equal(t, trainer.MaxEpisodes, maxEpisodes(evaluating))
	m := hostMemory(evaluating, tk, l)
	require.Equal(t, "eval_batch", m.Knob())
	require.Greater(t, m.Total(), hostMemory(big, tk, l).Total()+float64(trainer.MaxEpisodes*record.Words*4))

	// The check before the device: refused only when the eval batch is played.
	enginekit.AvailableMemory = func() float64 { return m.Total() / 2 }
	_, err = New(evaluating)
	var re *trainer.ResourceError
	require.Truef(t, errors.As(err, &re), "%v", err)
	require.Equal(t, "eval_batch", re.Knob)
	g, err := New(big)
	require.False(t, errors.As(err, &re), "%v", err) // (without a GPU: the device's error)
	if err == nil {
		g.Close()
	}
}

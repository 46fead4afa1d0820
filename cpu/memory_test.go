package cpu

import (
	"errors"
	"runtime"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// allocated is the bytes allocated so far by the process, freed or not: the
// difference over a call is what the call allocated, whatever the collector
// frees meanwhile (the live heap moves with garbage of earlier tests).
func allocated() float64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.TotalAlloc)
}

// TestCPUMemoryEstimate: what New allocates stays within CPUMemory's
// estimate, and the estimate is not far above it (so a refusal means it).
func TestCPUMemoryEstimate(t *testing.T) {
	for _, c := range []struct{ hidden, batch, chunk, threads, final int }{
		{96, 192, 96, 1, 1000}, {96, 192, 96, 2, 1000}, {8, 4096, 4096, 2, 0}, {256, 512, 64, 3, 200},
		{96, 192, 100000, 16, 0}, // the chunk capped at the batch, the threads at the chunks
	} {
		if tr, err := newRun(trainer.DefaultRecipe()); err == nil {
			tr.Close() // once: what the first New sets up for the process is not the config's
		}
		cfg := trainer.DefaultRecipe()
		cfg.Hidden, cfg.Batch, cfg.Chunk, cfg.Threads, cfg.FinalEpisodes, cfg.EvalBatch = c.hidden, c.batch, c.chunk, c.threads, c.final, 10
		est, _ := Memory(cfg)
		before := allocated()
		tr, err := newRun(cfg)
		require.NoError(t, err)
		used := allocated() - before
		tr.Close()
		t.Logf("%+v: allocated %.2f MiB, estimated %.2f MiB", c, used/(1<<20), est/(1<<20))
		require.LessOrEqualf(t, used, est, "%+v", c)
		require.GreaterOrEqualf(t, used, 0.8*est, "%+v: the estimate is far above what is allocated", c)
	}
}

// TestMemoryRefusedBeforeAllocation: a configuration beyond the available
// memory is a trainer.ResourceError naming the knob that drives it.
func TestMemoryRefusedBeforeAllocation(t *testing.T) {
	saved := enginekit.AvailableMemory
	defer func() { enginekit.AvailableMemory = saved }()
	enginekit.AvailableMemory = func() float64 { return 64 << 20 }
	for _, c := range []struct {
		hidden, batch, chunk, threads int
		knob                          string
	}{{96, 1 << 20, 1 << 20, 1, "chunk"}, {1024, 192, 96, 1, "hidden"}, {512, 4096, 8, 64, "threads"}} {
		cfg := trainer.DefaultRecipe()
		cfg.Hidden, cfg.Batch, cfg.Chunk, cfg.Threads = c.hidden, c.batch, c.chunk, c.threads
		before := allocated()
		_, err := newRun(cfg)
		var re *trainer.ResourceError
		require.Truef(t, errors.As(err, &re), "%+v: %v", c, err)
		require.Equal(t, c.knob, re.Knob)
		require.Less(t, allocated()-before, float64(1<<20), "refused after allocating")
	}
	cfg := trainer.DefaultRecipe()
	tr, err := newRun(cfg)
	require.NoError(t, err, "the default recipe fits in 64 MiB")
	tr.Close()
}

package cpu

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/internal/testsize"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/assert"
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

// wholeRun builds cfg's engine and Trainer and drives them through the
// loop, saving a checkpoint at the end (encoded, decoded and restored, as a
// -save and a -resume do): the bytes it allocated, and those still held
// after it while the trainer lives.
func wholeRun(t *testing.T, cfg trainer.Config) (used, held float64) {
	if tr, err := newRun(trainer.DefaultRecipe()); err == nil {
		tr.Close() // once: what the first New sets up for the process is not the config's
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before, live := float64(ms.TotalAlloc), float64(ms.HeapAlloc)
	r, err := newRun(cfg)
	require.NoError(t, err)
	save := func() error {
		f, err := r.Checkpoint()
		if err != nil {
			return err
		}
		b, err := checkpoint.Encode(f)
		if err != nil {
			return err
		}
		if f, err = checkpoint.Decode(b); err != nil {
			return err
		}
		return r.Restore(f)
	}
	_, err = trainer.Drive(r.tr, io.Discard, trainer.Options{Quiet: true, Save: save})
	require.NoError(t, err)
	used = allocated() - before
	runtime.GC()
	runtime.ReadMemStats(&ms)
	held = float64(ms.HeapAlloc) - live
	runtime.KeepAlive(r)
	return used, held
}

// TestCPUMemoryEstimate: Memory's estimate is within a factor of two of
// what a whole run allocates (the engine, the trainer's buffers, its
// evaluations, explanations, exhaustive lists and a checkpoint), and not
// below what the run still holds at its end: for the default recipe of every
// task (the calc task's with observations and read contexts too), for
// batches and replays far larger than a default's, and for the engine's own
// knobs (hidden width, chunk, threads, final evaluation).
func TestCPUMemoryEstimate(t *testing.T) {
	recipe := func(name, spec string, tweak func(*trainer.Config)) trainer.Config {
		c := trainer.DefaultRecipe()
		c.Task, c.TaskSpec = name, spec
		c, err := trainer.WithTask(c)
		require.NoError(t, err)
		c.Updates = 1
		if tweak != nil {
			tweak(&c)
		}
		return c
	}
	cases := map[string]trainer.Config{
		"seed":         recipe("seed", "", nil),
		"calc":         recipe("calc", "", nil),
		"calc observe": recipe("calc", "observe=on", nil),
		"calc read":    recipe("calc", "", func(c *trainer.Config) { c.Context = trainer.ContextRead }),
		"expr":         recipe("expr", "", nil),
		"expr batch":   recipe("expr", "", func(c *trainer.Config) { c.Batch, c.FinalEpisodes = 1<<16, 0 }),
		"expr replay":  recipe("expr", "", func(c *trainer.Config) { c.Replay, c.FinalEpisodes = 1<<16, 0 }),
		"expr explain": recipe("expr", "", func(c *trainer.Config) { c.Explain, c.FinalEpisodes = 2000, 0 }),
		"seed updates": recipe("seed", "", func(c *trainer.Config) {
			c.Updates, c.EvalEvery, c.Batch, c.EvalBatch, c.FinalEpisodes = 20000, 1, 1, 1, 0
		}),
	}
	for _, k := range []struct{ hidden, batch, chunk, threads, final int }{
		{96, 192, 96, 1, 1000}, {96, 192, 96, 2, 1000}, {8, 4096, 4096, 2, 0}, {256, 512, 64, 3, 200},
		{96, 192, 100000, 16, 0}, // the chunk capped at the batch, the threads at the chunks
	} {
		cases[fmt.Sprintf("seed %+v", k)] = recipe("seed", "", func(c *trainer.Config) {
			c.Hidden, c.Batch, c.Chunk, c.Threads, c.FinalEpisodes, c.EvalBatch = k.hidden, k.batch, k.chunk, k.threads, k.final, 10
		})
	}
	for name, cfg := range cases {
		// -short (the race detector's and qemu's runs) keeps the seed task's
		// small cases: the others play whole final and exhaustive
		// evaluations or 20,000 updates, over 20 minutes under qemu; the
		// full run covers every case.
		if !testsize.Long() && (!strings.HasPrefix(name, "seed") || name == "seed updates") { // minutes: calc's and expr's models
			continue
		}
		est, knob := Memory(cfg)
		used, held := wholeRun(t, cfg)
		t.Logf("%s: allocated %.2f MiB, held %.2f MiB, estimated %.2f MiB (%s)", name, used/(1<<20), held/(1<<20), est/(1<<20), knob)
		assert.GreaterOrEqualf(t, est, used/2, "%s: the estimate is far below what the run allocates", name)
		assert.LessOrEqualf(t, est, 2*used, "%s: the estimate is far above what the run allocates", name)
		assert.GreaterOrEqualf(t, est, held, "%s: the estimate is below what the run holds", name)
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

// TestPlanCountsTheTaskGames: the plan's estimate of the task's Envs counts
// what each game declares it holds (task.GameSized: the countdown tasks'
// no-revisit sets, 16 KiB a game at 256 steps), once per row of every
// worker's chunk, so that it grows with -chunk and -threads; it is the
// task's memory, not among the buffers the engine allocates itself.
func TestPlanCountsTheTaskGames(t *testing.T) {
	for _, k := range []struct {
		spec          string
		chunk, thread int
	}{{"", 96, 1}, {"", 4096, 3}, {"revisit=on", 96, 2}} {
		c := trainer.DefaultRecipe()
		c.Task, c.TaskSpec = "countdown4", k.spec
		c, err := trainer.WithTask(c)
		require.NoError(t, err)
		c.Batch, c.Chunk, c.Threads = 3*k.chunk, k.chunk, k.thread
		tk, err := c.OpenTask()
		require.NoError(t, err)
		p, err := newPlan(c, tk)
		require.NoError(t, err)
		without := *p
		without.gameBytes = 0
		games := float64(p.chunk * p.workers)
		require.Equal(t, games*task.GameBytes(tk), p.bytes(false)["chunk"]-without.bytes(false)["chunk"], "%+v", k)
		require.Equal(t, p.bytes(true), without.bytes(true), "%+v: the engine does not allocate the task's games", k)
		if k.spec == "" {
			require.Greater(t, task.GameBytes(tk), 16384.0, "the rule's set at 256 steps")
		}
	}
}

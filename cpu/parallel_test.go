package cpu

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestThreadsGiveIdenticalResults: the chunk size, not the thread count,
// decides the arithmetic, so parameters and metrics are bit-identical.
// Both tasks: calc's held-out draws, partial credit and budget mask go
// through the same chunks.
func TestThreadsGiveIdenticalResults(t *testing.T) {
	calc := shortConfig()
	calc.Recipe, calc.Task, calc.TaskSpec = "default", "calc", "levels=a*b, a*b+c*d"
	calc, err := trainer.WithTask(calc)
	require.NoError(t, err)
	calc.Updates = shortConfig().Updates // WithTask gives the task's long schedule
	for _, base := range []trainer.Config{shortConfig(), calc} {
		var ref *trainer.Report
		for _, n := range []int{1, 2, 3, 8} {
			c := base
			c.Threads = n
			c.Batch = 70 // 5 chunks of 16, the last one short
			rep, err := run(t, c, &bytes.Buffer{})
			require.NoError(t, err)
			for i := range rep.Evaluations {
				rep.Evaluations[i].UpdatesPerSecond = 0 // timing, not arithmetic
			}
			if ref == nil {
				ref = rep
				continue
			}
			require.Equalf(t, ref.ParamSHA256, rep.ParamSHA256, "%s threads=%d", c.Task, n)
			require.Equalf(t, ref.Final, rep.Final, "%s threads=%d", c.Task, n)
			require.Equalf(t, ref.Evaluations, rep.Evaluations, "%s threads=%d", c.Task, n)
			require.Equalf(t, ref.TrainReward, rep.TrainReward, "%s threads=%d", c.Task, n)
		}
	}
}

func TestParallelUpdateAllocatesNothing(t *testing.T) {
	c := shortConfig()
	c.Threads = 3
	tr, err := newRun(c)
	require.NoError(t, err)
	defer tr.Close()
	_, err = tr.Update()
	require.NoError(t, err)
	require.Zero(t, testing.AllocsPerRun(3, func() { _, _ = tr.Update() }), "the parallel update allocates")
	require.Zero(t, testing.AllocsPerRun(3, func() { tr.evaluate(2, 50, 9, task.HeldOut) }), "parallel evaluation allocates")
}

func TestCloseLeavesNoGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	c := shortConfig()
	c.Threads = 4
	tr, err := newRun(c)
	require.NoError(t, err)
	_, err = tr.Update()
	require.NoError(t, err)
	tr.Close()
	tr.Close() // idempotent
	// Close has waited for every worker to be done; one may still be
	// returning from its function, so the count is awaited with no
	// deadline (a loaded machine may be slow to run it): a worker that
	// never ends fails at the test binary's -timeout.
	for runtime.NumGoroutine() > before {
		runtime.Gosched()
	}
}

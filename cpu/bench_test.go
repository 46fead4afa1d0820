package cpu

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// usefulFlops counts the arithmetic of an update's episode steps with the
// token-table trick: per step, the hidden GEMM forward and its two backward
// products (18·d²) and the two heads forward and backward (6·d·(V+1)). A
// step after its episode's end (gru.Workspace.Retire) computes only its
// zero term of the heads' weight-gradient GEMM over k = T·n, 2·d·(V+1) (the
// recurrent one skips it: kernels.SgemmTNLive); live is the steps computed
// in full, all every step.
func usefulFlops(d, V int, all, live float64) float64 {
	full, dead := float64(18*d*d+6*d*(V+1)), float64(2*d*(V+1))
	return full*live + dead*(all-live)
}

// BenchmarkUpdate times whole training updates (env, rollout, loss, backward,
// clip, Adam) of the default recipe's loss at several batch sizes and thread
// counts: go test -run XXX -bench Update ./cpu
func BenchmarkUpdate(b *testing.B) {
	for _, batch := range []int{192, 4096, 65536} {
		for _, threads := range []int{1, 2, 4, 8, 16} {
			b.Run(fmt.Sprintf("B=%d/threads=%d", batch, threads), func(b *testing.B) {
				benchUpdate(b, batch, threads, trainer.DefaultRecipe().Chunk)
			})
		}
	}
}

// BenchmarkReferenceRecipeUpdate times updates of the reference (seed)
// recipe, the one scripts/torch_update_bench.py ports: its sum baseline
// weights every step, so its rollouts never stop (gru.Workspace.Retire).
func BenchmarkReferenceRecipeUpdate(b *testing.B) {
	for _, batch := range []int{192, 4096} {
		b.Run(fmt.Sprintf("B=%d/threads=1", batch), func(b *testing.B) {
			c := trainer.ReferenceRecipe()
			c.Batch, c.Threads = batch, 1
			runUpdates(b, c)
		})
	}
}

// BenchmarkUpdateChunk compares chunk sizes at one thread.
func BenchmarkUpdateChunk(b *testing.B) {
	for _, batch := range []int{192, 4096} {
		for _, chunk := range []int{32, 64, 96, 128, 192, 256, 512} {
			b.Run(fmt.Sprintf("B=%d/chunk=%d", batch, chunk), func(b *testing.B) {
				benchUpdate(b, batch, 1, chunk)
			})
		}
	}
}

// BenchmarkCalcUpdate times updates of the calc task's default curriculum
// (six levels mixed, 13-step rollouts) under its default recipe. Its b.N
// updates train one fresh engine, and its rollouts stop at the answer, so
// the work an update does grows as the policy learns (live-steps/episode:
// about 4.7 over the first 20 updates, 5.6 over 300, 6.8 over 1800):
// compare two builds at one fixed count (-benchtime 300x), not a duration.
func BenchmarkCalcUpdate(b *testing.B) {
	c := trainer.DefaultRecipe()
	c.Task = "calc"
	c, err := trainer.WithTask(c)
	if err != nil {
		b.Fatal(err)
	}
	for _, batch := range []int{192, 4096} {
		b.Run(fmt.Sprintf("B=%d/threads=1", batch), func(b *testing.B) {
			cc := c
			cc.Batch, cc.Threads = batch, 1
			runUpdates(b, cc)
		})
	}
}

// BenchmarkExprUpdate times updates of the expr task (sizes 2–6 mixed,
// 13-step rollouts) with its context read token by token and as the bag,
// without replays or item focus, so that the difference is the reading
// steps' cost; it also reports the mean reading steps an episode needs
// (its context's tokens, the end not counted: the reading steps' useful
// work is that × 18·d² flops, the GRU's forward and backward).
func BenchmarkExprUpdate(b *testing.B) {
	c := trainer.DefaultRecipe()
	c.Task = "expr"
	c, err := trainer.WithTask(c)
	if err != nil {
		b.Fatal(err)
	}
	c.Replay, c.ReplayCoef, c.ItemFocus = 0, 0, false
	t, err := task.Open(c.Task, c.TaskSpec)
	if err != nil {
		b.Fatal(err)
	}
	var tokens float64
	const draws = 20000
	for i := range draws {
		in := t.Draw(rng.NewKey(1), 1, uint32(i), rng.PurposeTask, i%len(t.Levels()), task.Training)
		tokens += float64(in.NContext)
	}
	for _, ctx := range []string{trainer.ContextRead, ""} {
		name := ctx
		if name == "" {
			name = trainer.ContextBag
		}
		b.Run(fmt.Sprintf("context=%s/B=192/threads=1", name), func(b *testing.B) {
			cc := c
			cc.Context, cc.Batch, cc.Threads = ctx, 192, 1
			runUpdates(b, cc)
			b.ReportMetric(tokens/draws, "reading-steps/episode")
		})
	}
}

func benchUpdate(b *testing.B, batch, threads, chunk int) {
	c := trainer.DefaultRecipe()
	c.Batch, c.Threads, c.Chunk = batch, threads, chunk
	runUpdates(b, c)
}

// runUpdates times b.N updates of a fresh engine of c and reports them.
func runUpdates(b *testing.B, c trainer.Config) {
	batch := c.Batch
	t, err := newRun(c)
	if err != nil {
		b.Fatal(err)
	}
	defer t.Close()
	if _, err := t.Update(); err != nil { // warm caches and pages
		b.Fatal(err)
	}
	live0 := t.liveSteps
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := t.Update(); err != nil {
			b.Fatal(err)
		}
	}
	s := b.Elapsed().Seconds()
	all, live := float64(b.N*batch*c.Steps), float64(t.liveSteps-live0)
	b.ReportMetric(float64(b.N)/s, "updates/s")
	b.ReportMetric(all/s, "env-steps/s")
	// The rollout's steps only: a reading layout's context steps are not counted.
	b.ReportMetric(live/float64(b.N*batch), "live-steps/episode")
	b.ReportMetric(usefulFlops(c.Hidden, t.task.Vocab(), all, live)/s/1e9, "GFLOP/s")
	b.ReportMetric(s/float64(b.N)*1e3, "ms/update")
}

// BenchmarkInterruptedUpdate: how long an update of 1<<20 episodes takes to
// return once its interrupt is closed (after its first chunk): the
// return-ns/op metric.
func BenchmarkInterruptedUpdate(b *testing.B) {
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Threads = 1<<20, 2
	tr, err := newRun(cfg)
	require.NoError(b, err)
	defer tr.Close()
	var total time.Duration
	for b.Loop() {
		stop := make(chan struct{})
		var closedAt time.Time
		var once sync.Once
		tr.SetInterrupt(stop)
		tr.pool.afterWork = func(int) { once.Do(func() { closedAt = time.Now(); close(stop) }) }
		_, err := tr.Update()
		total += time.Since(closedAt)
		require.ErrorIs(b, err, trainer.ErrInterrupted)
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(b.N), "return-ns/op")
}

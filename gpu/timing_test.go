//go:build cgo

package gpu

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGPUTiming times whole training updates (seed recipe, stage 0, as
// torch_seed_bench.py's run_batch(0)) at the batches listed in
// SIMDRL_GPU_BENCH (e.g. "192,4096,65536,262144"); device_check.sh reads
// its "timing" lines. Skipped when the variable is unset.
func TestGPUTiming(t *testing.T) {
	list := os.Getenv("SIMDRL_GPU_BENCH")
	if list == "" {
		t.Skip("set SIMDRL_GPU_BENCH=192,4096 to time updates")
	}
	d := openGPU(t)
	for _, f := range strings.Split(list, ",") {
		B, err := strconv.Atoi(strings.TrimSpace(f))
		require.NoError(t, err)
		cfg := trainer.SeedRecipe()
		cfg.Batch, cfg.Updates, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain = B, 1000, 1, 0, 0
		e := testEngine(t, d, cfg, nil)
		cur := trainer.NewCurriculum(cfg)
		u := 0
		step := func() {
			u++
			require.NoError(t, d.do(func() error { _, err := e.update(u, cur); return err }))
		}
		for i := 0; i < 3; i++ {
			step()
		}
		iters := max(5, min(100, 2000000/(B*cfg.Steps)))
		t0 := time.Now()
		for i := 0; i < iters; i++ {
			step()
		}
		sec := time.Since(t0).Seconds() / float64(iters)
		t.Logf("timing batch=%d ms_per_update=%.4f policy_steps_per_s=%.4g iters=%d fwd=%+v bwd=%+v", B, 1e3*sec, float64(B*cfg.Steps)/sec, iters, e.fwd, e.bwd)
		println("timing", "batch="+strconv.Itoa(B), "ms_per_update="+strconv.FormatFloat(1e3*sec, 'f', 4, 64),
			"policy_steps_per_s="+strconv.FormatFloat(float64(B*cfg.Steps)/sec, 'g', 4, 64))
		// Where the time goes: the same updates with a wait after every
		// launch (so each kernel's figure includes one launch latency).
		const profiled = 5
		d.prof = map[string]time.Duration{}
		for i := 0; i < profiled; i++ {
			step()
		}
		names := make([]string, 0, len(d.prof))
		for k := range d.prof {
			names = append(names, k)
		}
		sort.Slice(names, func(i, j int) bool { return d.prof[names[i]] > d.prof[names[j]] })
		for _, k := range names {
			println("kernel", "batch="+strconv.Itoa(B), k, "ms="+strconv.FormatFloat(d.prof[k].Seconds()*1e3/profiled, 'f', 4, 64))
		}
		d.prof = nil
	}
}

//go:build cgo

package gpu

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// BenchmarkGPUUpdate times whole training updates (seed recipe, level 0, as
// the PyTorch bench scripts/torch_update_bench.py does) at each batch, reporting policy
// steps/s; then the same updates once more with a wait after every launch,
// reporting each kernel's milliseconds per update (each includes one launch
// latency). device_check.sh reads these lines:
//
//	go test -run '^$' -bench GPUUpdate ./gpu/      # or gpu.test -test.bench GPUUpdate
func BenchmarkGPUUpdate(b *testing.B) {
	for _, B := range []int{192, 4096, 65536, 262144} {
		b.Run(fmt.Sprintf("B=%d", B), func(b *testing.B) {
			d := openGPU(b)
			cfg := trainer.ReferenceRecipe()
			cfg.Batch, cfg.Updates, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain = B, 1<<30, 1, 0, 0
			e := testEngine(b, d, cfg, nil)
			tr := trainerOf(b, d, e, cfg)
			step := func() {
				_, err := tr.Update()
				require.NoError(b, err)
			}
			for i := 0; i < 3; i++ { // warm-up: module load, first-touch
				step()
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				step()
			}
			b.StopTimer()
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(1e3*sec, "ms/update")
			b.ReportMetric(float64(B*cfg.Steps)/sec, "steps/s")

			const profiled = 3
			d.prof = map[string]time.Duration{}
			for i := 0; i < profiled; i++ {
				step()
			}
			names := make([]string, 0, len(d.prof))
			for k := range d.prof {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				b.ReportMetric(d.prof[k].Seconds()*1e3/profiled, k+"-ms")
			}
			d.prof = nil
		})
	}
}

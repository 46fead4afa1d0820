//go:build cgo

package gpu

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// BenchmarkGPUHostSteppedUpdate times whole training updates of a Go game
// stepped on the host (the walk of hoststep_test.go: observations, 16
// steps, the default recipe's model and step baseline) at each batch,
// reporting ms/update and policy steps/s, to set beside
// BenchmarkGPUUpdate's native kernels. Never run on a GPU yet:
//
//	go test -run '^$' -bench GPUHostSteppedUpdate ./gpu/
func BenchmarkGPUHostSteppedUpdate(b *testing.B) {
	for _, B := range []int{192, 4096, 65536} {
		b.Run(fmt.Sprintf("B=%d", B), func(b *testing.B) {
			d := openGPU(b)
			cfg := walkConfig("")
			cfg.Hidden = trainer.DefaultRecipe().Hidden
			cfg.Batch, cfg.Steps, cfg.Updates = B, 16, 1<<30
			tk := walkTask{}
			e := testEngineOf(b, d, cfg, tk, observingLayout(b, cfg.Hidden, tk), nil)
			tr := trainerOf(b, d, e, cfg)
			step := func() {
				_, err := tr.Update()
				require.NoError(b, err)
			}
			step() // warm-up: module load, first touch
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				step()
			}
			b.StopTimer()
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(1e3*sec, "ms/update")
			b.ReportMetric(float64(B*cfg.Steps)/sec, "steps/s")
		})
	}
}

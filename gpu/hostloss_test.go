//go:build cgo

package gpu

import (
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestHostLossIsTheCPUs: the host-stepped path's glue (hostloss.go) hands
// the shared estimators (enginekit) the buffers in the layout they read,
// so that its returns and loss weights are the CPU engine's bit for bit
// (cpu.EstimatorWeights, over its own estimator choice and step-major
// slices) for every estimator it runs: a rollout of n episodes in buffers
// sized for a larger batch (the layout's stride is n, not B), on episodes
// that pay before their end and end at different steps (some past the
// rollout). The weighing allocates nothing. No device is needed.
func TestHostLossIsTheCPUs(t *testing.T) {
	const n, B, T = 8, 12, 5
	r := rand.New(rand.NewPCG(1, 2))
	g := &hostGames{reward: make([]float64, T*B), done: make([]bool, T*B),
		logpa: make([]float32, T*B), val: make([]float32, T*B), ent: make([]float32, T*B),
		dlogp: make([]float32, T*B), dval: make([]float32, T*B), dent: make([]float32, T*B),
		returns: make([]float32, B), togo: make([]float32, T*B), end: make([]int32, B)}
	for i := range T * n {
		g.reward[i], g.logpa[i], g.val[i], g.ent[i] = r.Float64()-0.3, -r.Float32(), r.Float32(), r.Float32()
	}
	ends := make([]int32, n)
	for b := 0; b < n; b++ {
		end := r.IntN(T + 1) // T: runs past the rollout
		for t := end; t < T; t++ {
			g.done[t*n+b] = true
		}
		ends[b] = int32(min(end, T-1))
	}
	for _, est := range []string{"step", "sum", "step unmasked", trainer.EstimatorRLOO, trainer.EstimatorGRPO, trainer.EstimatorDrGRPO} {
		cfg := trainer.DefaultRecipe()
		cfg.Batch, cfg.EntropyCoef = n, 0.02
		switch est {
		case "sum":
			cfg.Baseline, cfg.MaskAfterAnswer = "sum", false
		case "step unmasked":
			cfg.MaskAfterAnswer = false
		case "step":
		default:
			cfg.Estimator, cfg.Group = est, 4
		}
		g.estimate = hostEstimator(estimatorCode(cfg)) // as newHostGames
		// so that what the glue leaves unwritten shows
		for _, d := range [][]float32{g.dlogp, g.dval, g.dent, g.togo} {
			for i := range d {
				d[i] = 7
			}
		}
		var got trainer.LossTerms
		allocs := testing.AllocsPerRun(3, func() {
			got = g.weigh(n, T, cfg.GroupSize(), hostScale(cfg, n, cfg.EntropyCoef))
		})
		require.Zero(t, allocs, est)

		require.Equal(t, ends, g.end[:n], est)
		for b := 0; b < n; b++ { // the returns-to-go, summed here in the order of the reference (from the last step)
			ret := 0.0
			for s := T - 1; s >= 0; s-- {
				ret += g.reward[s*n+b]
			}
			require.Equal(t, float32(ret), g.returns[b], "%s: episode %d's return", est, b)
			togo := 0.0
			for s := T - 1; s >= 0; s-- {
				togo += g.reward[s*n+b]
				if s <= int(ends[b]) {
					require.Equal(t, float32(togo), g.togo[s*n+b], "%s: episode %d step %d's return-to-go", est, b, s)
				} else {
					require.Equal(t, float32(ret), g.togo[s*n+b], "%s: past the end, the return", est)
				}
			}
		}
		terms, dl, dv, de := cpu.EstimatorWeights(cfg, n, T, cfg.Batch, g.logpa[:T*n], g.val[:T*n], g.ent[:T*n], g.returns[:n], g.togo[:T*n], g.end[:n])
		require.Equal(t, terms, got, est)
		require.Equal(t, dl, g.dlogp[:T*n], est)
		require.Equal(t, dv, g.dval[:T*n], est)
		require.Equal(t, de, g.dent[:T*n], est)
		require.Equal(t, est != "sum" && est != "step unmasked", hostStops(cfg), est)
	}
}

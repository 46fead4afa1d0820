//go:build cgo

package gpu

import (
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestHostLossIsTheCPUs: the host-stepped path's returns and loss weights
// (hostloss.go) are the CPU engine's bit for bit (cpu.EstimatorWeights) for
// every estimator it runs, on episodes that pay before their end and end at
// different steps (some past the rollout), and the loss allocates nothing.
// No device is needed.
func TestHostLossIsTheCPUs(t *testing.T) {
	const n, T = 8, 5
	r := rand.New(rand.NewPCG(1, 2))
	reward, done := make([]float64, n*T), make([]bool, n*T)
	logp, value, ent := make([]float32, n*T), make([]float32, n*T), make([]float32, n*T)
	for i := range reward {
		reward[i], logp[i], value[i], ent[i] = r.Float64()-0.3, -r.Float32(), r.Float32(), r.Float32()
	}
	ends := make([]int32, n)
	for b := 0; b < n; b++ {
		end := r.IntN(T + 1) // T: runs past the rollout
		for t := end; t < T; t++ {
			done[t*n+b] = true
		}
		ends[b] = int32(min(end, T-1))
	}
	ret, togo, end := make([]float32, n), make([]float32, n*T), make([]int32, n)
	hostReturns(n, T, reward, done, ret, togo, end)
	require.Equal(t, ends, end)
	for b := 0; b < n; b++ {
		g := 0.0
		for s := T - 1; s >= 0; s-- {
			g += reward[s*n+b]
			if s <= int(end[b]) {
				require.Equal(t, float32(g), togo[s*n+b], "episode %d step %d's return-to-go", b, s)
			} else {
				require.Equal(t, ret[b], togo[s*n+b], "past the end: the return")
			}
		}
		require.Equal(t, float32(g), ret[b])
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
		terms, dl, dv, de := cpu.EstimatorWeights(cfg, n, T, cfg.Batch, logp, value, ent, ret, togo, end)
		in := hostEpisodes{n: n, T: T, group: cfg.GroupSize(), logp: logp, value: value, entropy: ent, togo: togo, returns: ret, end: end,
			batch: n, valueCoef: cfg.ValueCoef, entropyCoef: cfg.EntropyCoef, mask: cfg.MaskAfterAnswer,
			dlogp: make([]float32, n*T), dvalue: make([]float32, n*T), dent: make([]float32, n*T)}
		var got trainer.LossTerms
		allocs := testing.AllocsPerRun(3, func() { got = hostWeights(estimatorCode(cfg), &in) })
		require.Zero(t, allocs, est)
		require.Equal(t, terms, got, est)
		require.Equal(t, dl, in.dlogp, est)
		require.Equal(t, dv, in.dvalue, est)
		require.Equal(t, de, in.dent, est)
		require.Equal(t, est != "sum" && est != "step unmasked", hostStops(cfg), est)
	}
}

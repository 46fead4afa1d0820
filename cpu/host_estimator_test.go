package cpu

import (
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestHostEstimatorIsTheEngines: HostEstimator's returns and loss weights
// are the engine's own (stepBuffers.returns, EstimatorWeights) for every
// estimator it runs, bit for bit, and it allocates nothing; ppo has none.
func TestHostEstimatorIsTheEngines(t *testing.T) {
	const n, T = 8, 5
	r := rand.New(rand.NewPCG(1, 2))
	reward, done := make([]float64, n*T), make([]bool, n*T)
	logp, value, ent := make([]float32, n*T), make([]float32, n*T), make([]float32, n*T)
	for i := range reward {
		reward[i], logp[i], value[i], ent[i] = r.Float64()-0.3, -r.Float32(), r.Float32(), r.Float32()
	}
	for b := 0; b < n; b++ {
		end := r.IntN(T + 1) // T: runs past the rollout
		for t := end; t < T; t++ {
			done[t*n+b] = true
		}
	}
	for _, est := range []string{"", "sum", trainer.EstimatorRLOO, trainer.EstimatorGRPO, trainer.EstimatorDrGRPO} {
		cfg := trainer.DefaultRecipe()
		cfg.Batch = 2 * n
		switch est {
		case "sum":
			cfg.Baseline, cfg.MaskAfterAnswer = "sum", false
		case "":
		default:
			cfg.Estimator, cfg.Group = est, 4
		}
		h, ok := NewHostEstimator(cfg)
		require.True(t, ok, est)
		want := newStepBuffers(n, T)
		copy(want.reward, reward)
		copy(want.done, done)
		wantRet := make([]float32, n)
		want.returns(n, T, wantRet)
		ret, togo, end := make([]float32, n), make([]float32, n*T), make([]int32, n)
		h.Returns(n, T, reward, done, ret, togo, end)
		require.Equal(t, wantRet, ret, est)
		require.Equal(t, want.togo, togo, est)
		require.Equal(t, want.end, end, est)

		cfg.EntropyCoef = 0.02
		terms, dl, dv, de := EstimatorWeights(cfg, n, T, cfg.Batch, logp, value, ent, ret, togo, end)
		gl, gv, ge := make([]float32, n*T), make([]float32, n*T), make([]float32, n*T)
		var got trainer.LossTerms
		allocs := testing.AllocsPerRun(3, func() { got = h.Weights(0.02, n, T, logp, value, ent, ret, togo, end, gl, gv, ge) })
		require.Zero(t, allocs, est)
		require.Equal(t, terms, got, est)
		require.Equal(t, dl, gl, est)
		require.Equal(t, dv, gv, est)
		require.Equal(t, de, ge, est)
		require.Equal(t, est != "sum", h.Stops(), est)
	}
	cfg := trainer.DefaultRecipe()
	cfg.Estimator = trainer.EstimatorPPO
	_, ok := NewHostEstimator(cfg)
	require.False(t, ok)
}

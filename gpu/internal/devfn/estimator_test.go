//go:build cgo

package devfn

import (
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGroupLossIsCPUs: simdrl_group_loss (loss.cuh) writes cpu's group
// estimators' weights (cpu.EstimatorWeights) and their loss terms, for
// each estimator, with and without the mask, in groups of 2, 3 and 8 of
// random steps, returns and ends, some groups of equal returns (no
// variance: advantage exactly 0). The GPU's tasks pay at the end, so the
// return-to-go the CPU reads is the return at every step.
func TestGroupLossIsCPUs(t *testing.T) {
	codes := EstimatorCodes()
	rnd := rand.New(rand.NewPCG(52, 1))
	const T, batch, vc, ec = 7, 96, 0.5, 0.03
	for _, est := range []struct {
		name string
		code int
	}{{trainer.EstimatorRLOO, codes.RLOO}, {trainer.EstimatorGRPO, codes.GRPO}, {trainer.EstimatorDrGRPO, codes.DrGRPO}} {
		for _, K := range []int{2, 3, 8} {
			for _, mask := range []bool{false, true} {
				n := 4 * K
				logp, val, ent := make([]float32, n*T), make([]float32, n*T), make([]float32, n*T)
				for i := range logp {
					logp[i], val[i], ent[i] = -3*rnd.Float32(), 2*rnd.Float32()-0.5, rnd.Float32()
				}
				returns, end := make([]float32, n), make([]int32, n)
				for b := range returns {
					returns[b], end[b] = rnd.Float32(), int32(rnd.IntN(T))
					if b/K == 1 { // a group without variance
						returns[b] = 0.375
					}
				}
				togo := make([]float32, n*T)
				for tt := 0; tt < T; tt++ {
					copy(togo[tt*n:], returns)
				}
				cfg := trainer.Config{Estimator: est.name, Group: K, ValueCoef: vc, EntropyCoef: ec, MaskAfterAnswer: mask}
				want, wl, wv, we := cpu.EstimatorWeights(cfg, n, T, batch, logp, val, ent, returns, togo, end)
				pg, value, entropy, dl, de, dv := GroupLoss(est.code, n, T, K, batch, logp, val, ent, returns, end, vc, ec, mask)
				label := []any{"%s K=%d mask=%v", est.name, K, mask}
				require.Equal(t, wl, dl, label...)
				require.Equal(t, wv, dv, label...)
				require.Equal(t, we, de, label...)
				require.InDelta(t, want.PG, pg, 1e-12, label...)
				require.InDelta(t, want.Value, value, 1e-12, label...)
				require.InDelta(t, want.Entropy, entropy, 1e-12, label...)
				require.NotEqual(t, make([]float32, n*T), dl, label...)
				for b := K; b < 2*K; b++ {
					require.Zero(t, dl[b], "%s K=%d: a group of equal returns weighs nothing", est.name, K)
				}
			}
		}
	}
}

// TestGroupLossGolden: simdrl_group_loss's loss terms on each group
// estimator's golden cases (make_golden.py --estimator: float64 PyTorch's
// log-probabilities, values and entropies, rows in groups, end steps).
func TestGroupLossGolden(t *testing.T) {
	codes := map[string]int{trainer.EstimatorRLOO: EstimatorCodes().RLOO, trainer.EstimatorGRPO: EstimatorCodes().GRPO,
		trainer.EstimatorDrGRPO: EstimatorCodes().DrGRPO}
	for _, dir := range golden.EstimatorDirs() {
		m, err := golden.LoadModel(dir)
		require.NoError(t, err)
		code, ok := codes[m.Estimator]
		require.True(t, ok, "%s holds no group estimator's cases", dir)
		require.NotEmpty(t, m.Batches, dir)
		for bi, b := range m.Batches {
			B, T := len(b.Ctx), m.Steps
			stepMajor := func(x []float64) []float32 { // the cases are [B][T], the kernels' buffers [T][B]
				o := make([]float32, B*T)
				for i := 0; i < B; i++ {
					for s := 0; s < T; s++ {
						o[s*B+i] = float32(x[i*T+s])
					}
				}
				return o
			}
			R := make([]float32, B)
			for i, r := range b.Rewards {
				R[i] = float32(r)
			}
			pg, val, ent, _, _, _ := GroupLoss(code, B, T, m.Group, B, stepMajor(b.Logp), stepMajor(b.Value), stepMajor(b.Entropy), R, b.End, 0.5, 0.01, m.Mask)
			require.InEpsilon(t, b.Loss.PG, pg, 1e-4, "%s batch %d", dir, bi)
			require.InEpsilon(t, b.Loss.Value, val, 1e-4, "%s batch %d", dir, bi)
			require.InEpsilon(t, b.Loss.Entropy, ent, 1e-4, "%s batch %d", dir, bi)
		}
	}
}

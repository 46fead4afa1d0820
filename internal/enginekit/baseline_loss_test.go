package enginekit

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// twoSteps is one episode of T = 2 steps paying 0.5 then 1 (return 1.5,
// returns-to-go 1.5 and 1), with log-probabilities −0.5, −0.25, values
// 0.25, 0.5 and entropies 1, 0.5, weighed as one of a batch of B = 2 with
// ValueCoef 0.5 and EntropyCoef 0.1.
func twoSteps() (Episodes, LossScale, LossWeights) {
	steps := &StepMajor{N: 1, Logps: []float32{-0.5, -0.25}, Values: []float32{0.25, 0.5}, Entropies: []float32{1, 0.5}}
	in := Episodes{Steps: steps, N: 1, T: 2, Returns: []float32{1.5}, ToGo: []float32{1.5, 1}, End: []int32{1}, Group: 1}
	return in, LossScale{Batch: 2, ValueCoef: 0.5, EntropyCoef: 0.1, Mask: true},
		LossWeights{DLogp: make([]float32, 2), DValue: make([]float32, 2), DEnt: make([]float32, 2)}
}

// TestSumLossByHand: the sum baseline weighs both steps by one advantage,
// R − Σ_t v_t = 1.5 − 0.75 = 0.75.
func TestSumLossByHand(t *testing.T) {
	in, s, out := twoSteps()
	got := SumLoss(in, s, out)
	// pg = −(Σ logp)·adv/B = 0.75·0.75/2; value = (Σ v − R)²/B = 0.75²/2; ent = −Σ entropy/(B·T) = −1.5/4
	require.Equal(t, 0.28125, got.PG)
	require.Equal(t, 0.28125, got.Value)
	require.Equal(t, -0.375, got.Entropy)
	require.InDelta(t, 0.28125+0.5*0.28125-0.1*0.375, got.Total, 1e-15)
	require.Equal(t, []float32{-0.375, -0.375}, out.DLogp)                  // −adv/B
	require.Equal(t, []float32{-0.375, -0.375}, out.DValue)                 // ValueCoef·2·(Σ v − R)/B
	require.Equal(t, []float32{float32(-0.025), float32(-0.025)}, out.DEnt) // −EntropyCoef/(B·T)
}

// TestStepLossByHand: the step baseline weighs each step by its own
// advantage, G_t − v_t = 1.5 − 0.25 and 1 − 0.5.
func TestStepLossByHand(t *testing.T) {
	in, s, out := twoSteps()
	got := StepLoss(in, s, out)
	// pg = −(−0.5·1.25 − 0.25·0.5)/2; value = ((0.25 − 1.5)² + (0.5 − 1)²)/2
	require.Equal(t, 0.375, got.PG)
	require.Equal(t, 0.90625, got.Value)
	require.Equal(t, -0.375, got.Entropy)
	require.InDelta(t, 0.375+0.5*0.90625-0.1*0.375, got.Total, 1e-15)
	require.Equal(t, []float32{-0.625, -0.25}, out.DLogp)
	require.Equal(t, []float32{-0.625, -0.25}, out.DValue) // 0.5·2·(v − G)/2
	require.Equal(t, []float32{float32(-0.025), float32(-0.025)}, out.DEnt)
}

// TestDoneEndsTheEpisode: the done flag at episode 0's first step ends it
// (Returns), so that the step baseline with Mask weighs its later steps 0,
// and without Mask weighs them as any step; episode 1 runs to the end and
// is weighed alike either way. The sum baseline weighs every step.
func TestDoneEndsTheEpisode(t *testing.T) {
	const n, T = 2, 3
	reward := []float64{1, 0, 0, 0.5, 0, 0} // step-major: episode 0 is paid at its first step, episode 1 at its second
	done := []bool{true, false, true, false, true, false}
	ret, togo, end := make([]float32, n), make([]float32, n*T), make([]int32, n)
	Returns(n, T, reward, done, ret, togo, end)
	require.Equal(t, []int32{0, 2}, end)
	steps := &StepMajor{N: n, Logps: []float32{-1, -1, -1, -1, -1, -1}, Values: make([]float32, n*T), Entropies: []float32{1, 1, 1, 1, 1, 1}}
	in := Episodes{Steps: steps, N: n, T: T, Returns: ret, ToGo: togo, End: end, Group: 1}
	weigh := func(e Estimator, mask bool) (LossTerms, []float32) {
		out := LossWeights{DLogp: make([]float32, n*T), DValue: make([]float32, n*T), DEnt: make([]float32, n*T)}
		for i := range out.DLogp {
			out.DLogp[i], out.DValue[i], out.DEnt[i] = 7, 7, 7 // so that a weight left unwritten shows
		}
		terms := e(in, LossScale{Batch: n, ValueCoef: 1, EntropyCoef: 1, Mask: mask}, out)
		return terms, out.DLogp
	}
	// (G_t − v_t)/B: episode 0's 1, then (past its end) its return 1, 1; episode 1's 0.5, 0.5, 0; B = 2
	terms, dlogp := weigh(StepLoss, true)
	require.Equal(t, []float32{-0.5, -0.25, 0, -0.25, 0, 0}, dlogp)
	require.InDelta(t, -4/(2.0*3), terms.Entropy, 1e-15, "four live steps (one of episode 0, three of episode 1) of entropy 1, over B·T")
	terms, dlogp = weigh(StepLoss, false)
	require.Equal(t, []float32{-0.5, -0.25, -0.5, -0.25, -0.5, 0}, dlogp)
	require.InDelta(t, -6/(2.0*3), terms.Entropy, 1e-15)
	_, dlogp = weigh(SumLoss, true) // R − Σ v over B, on every step
	require.Equal(t, []float32{-0.5, -0.25, -0.5, -0.25, -0.5, -0.25}, dlogp)
}

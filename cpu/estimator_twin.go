package cpu

import "github.com/simdrl/simdrl/trainer"

// EstimatorWeights runs cfg's estimator (estimatorOf: Estimator, else
// Baseline) on n episodes of T steps laid out step-major (step t of
// episode b at t*n + b: logp, value, entropy, togo), with their returns and
// end steps, in groups of cfg.GroupSize(), weighed as a batch of batch
// episodes. It returns the loss terms and the weights it writes. It is
// how the estimators' CUDA twins (gpu/kernels/loss.cuh, checked in
// gpu/internal/devfn) are compared with these, and allocates.
func EstimatorWeights(cfg trainer.Config, n, T, batch int, logp, value, entropy, returns, togo []float32, end []int32) (terms trainer.LossTerms, dlogp, dvalue, dent []float32) {
	estimate, _ := estimatorOf(cfg)
	in := episodes{steps: &givenSteps{n: n, logp: logp, value: value, entropy: entropy}, n: n, T: T, returns: returns, togo: togo, end: end,
		group: cfg.GroupSize()}
	out := lossWeights{DLogp: make([]float32, n*T), DValue: make([]float32, n*T), DEnt: make([]float32, n*T)}
	s := lossScale{batch: batch, valueCoef: cfg.ValueCoef, entropyCoef: cfg.EntropyCoef, mask: cfg.MaskAfterAnswer}
	return estimate(in, s, out), out.DLogp, out.DValue, out.DEnt
}

// givenSteps are a rollout's step values given as step-major slices.
type givenSteps struct {
	n                    int
	logp, value, entropy []float32
}

func (g *givenSteps) Logp(b, t int) float32    { return g.logp[t*g.n+b] }
func (g *givenSteps) Value(b, t int) float32   { return g.value[t*g.n+b] }
func (g *givenSteps) Entropy(b, t int) float32 { return g.entropy[t*g.n+b] }

package cpu

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
)

// EstimatorWeights runs cfg's estimator (estimatorOf: Estimator, else
// Baseline) on n episodes of T steps laid out step-major (step t of
// episode b at t*n + b: logp, value, entropy, togo), with their returns and
// end steps, in groups of cfg.GroupSize(), weighed as a batch of batch
// episodes. It returns the loss terms and the weights it writes. It is
// how the estimators' CUDA twins (gpu/kernels/loss.cuh, checked in
// gpu/internal/devfn) are compared with these, and allocates.
func EstimatorWeights(cfg trainer.Config, n, T, batch int, logp, value, entropy, returns, togo []float32, end []int32) (terms trainer.LossTerms, dlogp, dvalue, dent []float32) {
	estimate, _ := estimatorOf(cfg)
	in := enginekit.Episodes{Steps: &enginekit.StepMajor{N: n, Logps: logp, Values: value, Entropies: entropy}, N: n, T: T,
		Returns: returns, ToGo: togo, End: end, Group: cfg.GroupSize()}
	out := enginekit.LossWeights{DLogp: make([]float32, n*T), DValue: make([]float32, n*T), DEnt: make([]float32, n*T)}
	s := enginekit.LossScale{Batch: batch, ValueCoef: cfg.ValueCoef, EntropyCoef: cfg.EntropyCoef, Mask: cfg.MaskAfterAnswer}
	return termsOf(estimate(in, s, out)), out.DLogp, out.DValue, out.DEnt
}

package cpu

import "github.com/simdrl/simdrl/trainer"

// HostEstimator is cfg's estimator (estimatorOf) for an engine that rolls
// out elsewhere and steps its task's games on the host (the CUDA engine's
// host-stepped tasks, gpu/hoststep.go): it computes the returns, ends and
// loss weights exactly as this engine does, from step-major buffers the
// caller owns (step t of episode b at t*n + b), and allocates nothing after
// NewHostEstimator.
type HostEstimator struct {
	estimate estimator
	scale    lossScale
	group    int
	stops    bool // it weights no step after an episode's end
	steps    givenSteps
}

// NewHostEstimator is cfg's estimator for batches of batch episodes. It
// returns false for an estimator with no host twin (ppo).
func NewHostEstimator(cfg trainer.Config) (*HostEstimator, bool) {
	estimate, masks := estimatorOf(cfg)
	if estimate == nil {
		return nil, false
	}
	return &HostEstimator{estimate: estimate, group: cfg.GroupSize(), stops: masks,
		scale: lossScale{batch: cfg.Batch, valueCoef: cfg.ValueCoef, mask: cfg.MaskAfterAnswer}}, true
}

// Returns writes, for n episodes of T steps with each step's reward and
// done flag, each episode's return (float32), the step that ended it (its
// first done flag, or T−1) and each step's return-to-go (stepBuffers.returns).
func (h *HostEstimator) Returns(n, T int, reward []float64, done []bool, ret, togo []float32, end []int32) {
	s := stepBuffers{reward: reward, done: done, togo: togo, end: end}
	s.returns(n, T, ret)
}

// Weights writes the loss weights of n episodes of T steps (logp, value and
// entropy of each step, 0 past a finished episode's end where the estimator
// masks) into dlogp, dvalue and dent with the update's entropy
// coefficient (trainer.Plan.Entropy), and returns their loss terms.
func (h *HostEstimator) Weights(entropyCoef float64, n, T int, logp, value, entropy, returns, togo []float32, end []int32, dlogp, dvalue, dent []float32) trainer.LossTerms {
	h.steps = givenSteps{n: n, logp: logp, value: value, entropy: entropy}
	in := episodes{steps: &h.steps, n: n, T: T, returns: returns, togo: togo, end: end, group: h.group}
	s := h.scale
	s.entropyCoef = entropyCoef
	return h.estimate(in, s, lossWeights{DLogp: dlogp, DValue: dvalue, DEnt: dent})
}

// Stops reports whether the estimator weights no step after an episode's
// end, so that a rollout may stop once every episode has ended.
func (h *HostEstimator) Stops() bool { return h.stops }

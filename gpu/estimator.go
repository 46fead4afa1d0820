package gpu

import "github.com/simdrl/simdrl/trainer"

// The estimators on the GPU: kernels/loss.cuh's twins of internal/enginekit's
// pure functions, numbered as the rollout's and simdrl_estimate's
// estimator parameter takes them (SIMDRL_EST_*). The REINFORCE baselines
// (sum, step) write their loss weights inside the rollout, episode by
// episode; a group estimator needs the returns of its group's episodes
// first, so simdrl_estimate writes them after the rollout (engine.estimate).
// PPO has no number: its loss weights are the host's (ppo.go), and the
// rollout's own under the baseline's code are overwritten.
const (
	estSum = iota
	estStep
	estRLOO
	estGRPO
	estDrGRPO
)

// estimatorCode is cfg's estimator (trainer.Config.Estimator, else its
// Baseline), as the kernels number it.
func estimatorCode(cfg trainer.Config) int {
	switch cfg.Estimator {
	case trainer.EstimatorRLOO:
		return estRLOO
	case trainer.EstimatorGRPO:
		return estGRPO
	case trainer.EstimatorDrGRPO:
		return estDrGRPO
	}
	if cfg.Baseline == "step" {
		return estStep
	}
	return estSum
}

// groupEstimator reports whether code compares the episodes of a group.
func groupEstimator(code int) bool { return code >= estRLOO }

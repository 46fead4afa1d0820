package trainer

// Diagnostics are an update's health figures beyond its loss, where its
// estimator computes them (nil otherwise; -metrics writes them under
// "diagnostics", TensorBoard under diag/). The gradient norm is
// UpdateStats.GradNorm.
type Diagnostics struct {
	// PPO: over the update's minibatches, the approximate KL divergence
	// of the policy from the rollout's, mean((r − 1) − log r) with r the
	// probability ratio (Schulman's k3, as CleanRL's approx_kl), and the
	// fraction of steps whose ratio the clip bounds; the value head's
	// explained variance, 1 − Var(G − v)/Var(G) over the rollout's steps.
	ApproxKL          float64 `json:"approx_kl,omitempty"`
	ClipFraction      float64 `json:"clip_fraction,omitempty"`
	ExplainedVariance float64 `json:"explained_variance,omitempty"`
	// The group estimators: the fraction of groups whose returns are all
	// equal, whose advantages are 0 (they teach the policy nothing).
	FlatGroups float64 `json:"flat_groups,omitempty"`
	// Steps is the optimiser steps the update took (PPO: epochs × minibatches).
	Steps int `json:"optimizer_steps,omitempty"`
}

package trainer

import (
	"fmt"
	"slices"
)

// The advantage estimators (Config.Estimator): how an update turns its
// episodes' rewards into the weights of their log-probabilities. ""
// is REINFORCE with the value head as baseline (Config.Baseline: sum or
// step); the group estimators compare each episode with the others of its
// group, Config.Group consecutive episodes that play one instance:
const (
	EstimatorRLOO   = "rloo"   // R − the mean of the group's other returns (Ahmadian et al. 2024)
	EstimatorGRPO   = "grpo"   // (R − group mean) / (group std + ε), each episode's steps averaged (Shao et al. 2024)
	EstimatorDrGRPO = "drgrpo" // R − group mean, without GRPO's std and length normalisations (Liu et al. 2025)
)

// GroupEstimators are the estimators that need groups of at least two episodes.
var GroupEstimators = []string{EstimatorRLOO, EstimatorGRPO, EstimatorDrGRPO}

// GroupSize is the episodes that share one instance: Group, or 1 when unset.
func (c *Config) GroupSize() int { return max(1, c.Group) }

// groupEstimator reports whether Estimator is one of GroupEstimators.
func (c *Config) groupEstimator() bool { return slices.Contains(GroupEstimators, c.Estimator) }

// validateEstimator checks Estimator and Group. A group lies within one of
// the CPU engine's chunks (it fuses rollout, loss and backward per chunk,
// so a group's baseline must be known before its chunk's backward): Group
// divides the batch and the chunk (at most the batch), so that every
// chunk holds whole groups.
func (c *Config) validateEstimator() error {
	K, chunk := c.GroupSize(), max(1, min(c.Chunk, c.Batch))
	switch {
	case c.Estimator != "" && !c.groupEstimator() && c.Estimator != EstimatorPPO:
		return fieldError("estimator", "must be empty (the -baseline), rloo, grpo, drgrpo or ppo, got %q", c.Estimator)
	case c.Group < 0 || c.Group > MaxEpisodes:
		return fieldError("group", "must be in 1..%d, got %d", MaxEpisodes, c.Group)
	case c.groupEstimator() && K < 2:
		return &FieldError{Field: "estimator", Problem: fmt.Sprintf("%s compares the episodes of a group: it needs groups of at least 2, got %d", c.Estimator, K),
			Hint: "set -group"}
	case c.Batch%K != 0:
		return fieldError("group", "must divide the batch (%d), got %d", c.Batch, K)
	case chunk%K != 0:
		return fieldError("group", "must divide the chunk (%d): a group's episodes lie within one chunk, got %d", chunk, K)
	}
	return c.validatePPO()
}

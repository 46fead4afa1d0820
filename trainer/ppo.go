package trainer

import (
	"cmp"
	"fmt"
	"math"
)

// EstimatorPPO is PPO (Schulman et al. 2017) as CleanRL's ppo.py does it:
// the update's rollout is stored (actions, log-probabilities, values,
// rewards, terminated or truncated), GAE(λ) over the value head gives each
// step's advantage and return, then PPOEpochs passes over the episodes in
// PPOMinibatches shuffled minibatches each take one optimiser step on the
// clipped surrogate + value loss − entropy. On the CPU (cpu/ppo.go) and
// the GPU (gpu/ppo.go).
const EstimatorPPO = "ppo"

// PPOSettings are PPO's settings with CleanRL's defaults filled in.
type PPOSettings struct {
	Epochs, Minibatches int
	ClipCoef            float64 // the ratio's clip ε (and the value's, with ClipVLoss)
	Lambda, Gamma       float64 // GAE's λ and the discount γ
	ClipVLoss, NormAdv  bool    // clip the value loss; normalise advantages per minibatch
}

// CleanRL's ppo.py defaults: update_epochs, num_minibatches, clip_coef,
// gae_lambda, gamma.
const (
	defaultPPOEpochs      = 4
	defaultPPOMinibatches = 4
	defaultClipCoef       = 0.2
	defaultGAELambda      = 0.95
	defaultGamma          = 0.99
)

// PPO is c's PPO settings, a zero field standing for CleanRL's default.
func (c *Config) PPO() PPOSettings {
	return PPOSettings{
		Epochs: cmp.Or(c.PPOEpochs, defaultPPOEpochs), Minibatches: cmp.Or(c.PPOMinibatches, defaultPPOMinibatches),
		ClipCoef: cmp.Or(c.ClipCoef, defaultClipCoef), Lambda: cmp.Or(c.GAELambda, defaultGAELambda), Gamma: cmp.Or(c.Gamma, defaultGamma),
		ClipVLoss: !c.NoClipVLoss, NormAdv: !c.NoNormAdv,
	}
}

// optimizerSteps is the Adam steps an update takes: PPO's epochs ×
// minibatches, else 1 (a checkpoint's adam_step is update × this).
func (c *Config) optimizerSteps() int {
	if c.Estimator != EstimatorPPO {
		return 1
	}
	p := c.PPO()
	return p.Epochs * p.Minibatches
}

// adamSteps says k Adam steps in words.
func adamSteps(k int) string {
	if k == 1 {
		return "one Adam step"
	}
	return fmt.Sprintf("%d Adam steps", k)
}

// validatePPO checks PPO's settings: whole minibatches of episodes
// (PPOMinibatches divides the batch), and no replayed programs, which
// would add a gradient to one of several optimiser steps.
func (c *Config) validatePPO() error {
	p := c.PPO()
	switch {
	case c.PPOEpochs < 0 || c.PPOEpochs > 1000:
		return fieldError("ppo_epochs", "must be in 1..1000, got %d", c.PPOEpochs)
	case c.PPOMinibatches < 0 || c.PPOMinibatches > MaxEpisodes:
		return fieldError("ppo_minibatches", "must be in 1..%d, got %d", MaxEpisodes, c.PPOMinibatches)
	case c.Estimator == EstimatorPPO && c.Batch%p.Minibatches != 0:
		return fieldError("ppo_minibatches", "must divide the batch (%d), got %d", c.Batch, p.Minibatches)
	case !(c.ClipCoef >= 0 && c.ClipCoef <= 10):
		return fieldError("clip_coef", "must be in (0, 10], got %v", c.ClipCoef)
	case !(c.GAELambda >= 0 && c.GAELambda <= 1) || math.IsNaN(c.GAELambda):
		return fieldError("gae_lambda", "must be in (0, 1], got %v", c.GAELambda)
	case !(c.Gamma >= 0 && c.Gamma <= 1):
		return fieldError("gamma", "must be in (0, 1], got %v", c.Gamma)
	case c.Estimator == EstimatorPPO && c.Replay > 0:
		return fieldError("replay", "is not part of PPO (-estimator ppo): set -replay 0, got %d", c.Replay)
	}
	return nil
}

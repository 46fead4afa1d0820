//go:build cgo

package gpu

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
)

// The loss weights of a host-stepped rollout (hoststep.go), computed on the
// host from the steps copied back by the CPU engine's own estimators
// (enginekit's: one copy of the arithmetic, so that they are the CPU's bit
// for bit). Unlike kernels/loss.cuh, they regress the value on the
// return-to-go: a Go game may pay before its end. This file is the glue:
// which estimator, and g's buffers as its input and output.

// hostStops reports whether cfg's estimator weights no step after an
// episode's end, so that a rollout may stop once every episode has ended
// (cpu's estimatorOf: the sum baseline weights every step).
func hostStops(cfg trainer.Config) bool {
	return estimatorCode(cfg) != estSum && cfg.MaskAfterAnswer
}

// hostEstimator is the estimator of code (estimatorCode).
func hostEstimator(code int) enginekit.Estimator {
	switch code {
	case estSum:
		return enginekit.SumLoss
	case estStep:
		return enginekit.StepLoss
	case estRLOO:
		return enginekit.RLOOLoss
	case estGRPO:
		return enginekit.GRPOLoss
	}
	return enginekit.DrGRPOLoss
}

// hostScale is what cfg's estimator weighs a rollout of n episodes by,
// with the plan's entropy coefficient.
func hostScale(cfg trainer.Config, n int, entropy float64) enginekit.LossScale {
	return enginekit.LossScale{Batch: n, ValueCoef: cfg.ValueCoef, EntropyCoef: entropy, Mask: cfg.MaskAfterAnswer}
}

// weigh reads the n episodes of T steps in g's step buffers (step t of
// episode b at t*n + b: reward and done as the task wrote them, logpa, val
// and ent as copied back, 0 after the last step run), in groups of group;
// writes their returns, ends and returns-to-go and their loss weights
// (dlogp, dval, dent) in the same layout; and returns the loss terms.
func (g *hostGames) weigh(n, T, group int, s enginekit.LossScale) trainer.LossTerms {
	enginekit.Returns(n, T, g.reward, g.done, g.returns, g.togo, g.end)
	g.steps = enginekit.StepMajor{N: n, Logps: g.logpa, Values: g.val, Entropies: g.ent} // in g: passed on, it allocates nothing
	in := enginekit.Episodes{Steps: &g.steps, N: n, T: T, Returns: g.returns, ToGo: g.togo, End: g.end, Group: group}
	o := g.estimate(in, s, enginekit.LossWeights{DLogp: g.dlogp, DValue: g.dval, DEnt: g.dent})
	return trainer.LossTerms{PG: o.PG, Value: o.Value, Entropy: o.Entropy, Total: o.Total}
}

// flatGroups is how many of the n episodes' groups of group that weigh
// last wrote the returns of have returns all equal (enginekit.Flat, the
// CPU's count: Diagnostics.FlatGroups), 0 for an estimator that does not
// compare a group's episodes (its statistics' SIMDRL_STAT_FLAT, as the
// rollout leaves it).
func (g *hostGames) flatGroups(n, group, code int) float64 {
	if !groupEstimator(code) {
		return 0
	}
	flat := 0
	for b := 0; b < n; b += group {
		if enginekit.Flat(g.returns[b : b+group]) {
			flat++
		}
	}
	return float64(flat)
}

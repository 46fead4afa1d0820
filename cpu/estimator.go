package cpu

import (
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
)

// The estimator seam. After a chunk's rollout the engine hands its
// episodes to the configured estimator (enginekit.Estimator: the
// arithmetic is shared with the GPU engine's host-stepped path), which
// writes every step's loss weights into the workspace and returns the
// chunk's share of the loss terms. This file is the glue: which estimator,
// and the chunk's workspace and buffers as its input and output.
//
// cpu.trainJob.work fuses rollout, loss and backward per chunk, so an
// estimator sees one chunk at a time: a group baseline needs its group's
// rewards before the chunk's backward, so a group lies within one chunk
// (trainer.Config's validation: Group divides the chunk and the batch).

// estimatorOf is cfg's estimator, and whether it weights no step after an
// episode's end (so that its rollouts may retire finished episodes).
func estimatorOf(cfg trainer.Config) (estimate enginekit.Estimator, masks bool) {
	switch cfg.Estimator {
	case trainer.EstimatorRLOO:
		return enginekit.RLOOLoss, cfg.MaskAfterAnswer
	case trainer.EstimatorGRPO:
		return enginekit.GRPOLoss, cfg.MaskAfterAnswer
	case trainer.EstimatorDrGRPO:
		return enginekit.DrGRPOLoss, cfg.MaskAfterAnswer
	case trainer.EstimatorPPO:
		return nil, true // ppo.go: its loss reads nothing after an episode's end
	}
	if cfg.Baseline == "step" {
		return enginekit.StepLoss, cfg.MaskAfterAnswer
	}
	return enginekit.SumLoss, false // the sum baseline weights every step, as the seed does
}

// chunkEpisodes is the estimator input of a chunk of groups of group
// episodes rolled out in ws, whose returns s and returns hold
// (stepBuffers.returns): the workspace is read in place.
func chunkEpisodes(ws *gru.Workspace, s *stepBuffers, returns []float32, group int) enginekit.Episodes {
	return enginekit.Episodes{Steps: ws, N: ws.Rows(), T: ws.T, Returns: returns, ToGo: s.togo, End: s.end, Group: group}
}

// weightsOf is ws's loss weights, where an estimator writes.
func weightsOf(ws *gru.Workspace) enginekit.LossWeights {
	return enginekit.LossWeights{DLogp: ws.DLogp, DValue: ws.DValue, DEnt: ws.DEnt}
}

// termsOf is an estimator's terms as the trainer's.
func termsOf(o enginekit.LossTerms) trainer.LossTerms {
	return trainer.LossTerms{PG: o.PG, Value: o.Value, Entropy: o.Entropy, Total: o.Total}
}

// addLoss accumulates another chunk's share of the terms into l.
func addLoss(l *trainer.LossTerms, o trainer.LossTerms) {
	l.PG += o.PG
	l.Value += o.Value
	l.Entropy += o.Entropy
	l.Total += o.Total
}

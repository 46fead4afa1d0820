package cpu

import (
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/trainer"
)

// The estimator seam. After a chunk's rollout the engine hands its
// episodes to the configured estimator, a pure function that writes every
// step's loss weights (the loss's derivatives by log-probability, value
// and entropy, which the backward pass reads) and returns the chunk's share
// of the loss terms. Today's REINFORCE baselines (sumLoss, stepLoss) and
// the group estimators (group.go) are such functions.
//
// cpu.trainJob.work fuses rollout, loss and backward per chunk, so an
// estimator sees one chunk at a time: a group baseline needs its group's
// rewards before the chunk's backward, so a group lies within one chunk
// (trainer.Config's validation: Group divides the chunk and the batch).

// stepValues is what an estimator reads of the policy's steps: episode b's
// log-probability of its action at step t, its value and its entropy
// (gru.Workspace; 0 past a retired episode's end).
type stepValues interface {
	Logp(b, t int) float32
	Value(b, t int) float32
	Entropy(b, t int) float32
}

// episodes is an estimator's input: a chunk's n episodes of T steps, step
// t of episode b at index t*n + b.
type episodes struct {
	steps   stepValues
	n, T    int
	returns []float32 // per episode, as float32 like the reference's torch.tensor(rewards).float()
	togo    []float32 // per step: the return-to-go (stepBuffers.returns)
	end     []int32   // per episode: the step that ended it, or T−1
	group   int       // consecutive episodes that played one instance (n is a multiple of it)
}

// lossScale is what an estimator weighs the terms by: batch, the whole
// update's episode count, is the denominator of every mean; mask leaves
// the steps after an episode's end out (Config.MaskAfterAnswer).
type lossScale struct {
	batch                  int
	valueCoef, entropyCoef float64
	mask                   bool
}

// lossWeights is where an estimator writes, per step (t*n + b): the
// workspace's DLogp, DValue and DEnt.
type lossWeights struct{ DLogp, DValue, DEnt []float32 }

// estimator writes in's loss weights into out and returns their loss terms.
// It is passed everything by value, so that calling it through a
// variable allocates nothing.
type estimator func(in episodes, s lossScale, out lossWeights) trainer.LossTerms

// estimatorOf is cfg's estimator, and whether it weights no step after an
// episode's end (so that its rollouts may retire finished episodes).
func estimatorOf(cfg trainer.Config) (estimate estimator, masks bool) {
	switch cfg.Estimator {
	case trainer.EstimatorRLOO:
		return rlooLoss, cfg.MaskAfterAnswer
	case trainer.EstimatorGRPO:
		return grpoLoss, cfg.MaskAfterAnswer
	case trainer.EstimatorDrGRPO:
		return drgrpoLoss, cfg.MaskAfterAnswer
	case trainer.EstimatorPPO:
		return nil, true // ppo.go: its loss reads nothing after an episode's end
	}
	if cfg.Baseline == "step" {
		return stepLoss, cfg.MaskAfterAnswer
	}
	return sumLoss, false // the sum baseline weights every step, as the seed does
}

// chunkEpisodes is the estimator input of a chunk of groups of group
// episodes rolled out in ws, whose returns s and returns hold
// (stepBuffers.returns).
func chunkEpisodes(ws *gru.Workspace, s *stepBuffers, returns []float32, group int) episodes {
	return episodes{steps: ws, n: ws.Rows(), T: ws.T, returns: returns, togo: s.togo, end: s.end, group: group}
}

// weightsOf is ws's loss weights, where an estimator writes.
func weightsOf(ws *gru.Workspace) lossWeights {
	return lossWeights{DLogp: ws.DLogp, DValue: ws.DValue, DEnt: ws.DEnt}
}

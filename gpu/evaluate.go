//go:build cgo

package gpu

// Evaluation: greedy episodes of a level, drawn from a split.

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// evaluate plays n greedy episodes of level on round of the evaluation
// stream, drawn from split, in launches of at most maxN episodes (the
// buffers' episodes: an evaluation larger than the configuration's
// periodic and final ones, e.g. a confirmation or an evaluation pending in
// a checkpoint resumed with -eval-every 0, plays in parts, episode first+b
// of a part drawn as episode first+b of one launch). An interrupt is
// checked before each part's draw, between host-drawn parts and before
// each rollout launch.
func (e *engine) evaluate(level, n int, round uint32, split task.Split) (trainer.EvalResult, error) {
	res := trainer.EvalResult{Level: level, Episodes: n}
	if n <= 0 {
		return res, nil
	}
	purpose := enginekit.EvalPurpose(level)
	reward, solved := 0.0, 0.0
	for first := 0; first < n; first += e.maxN {
		part := min(e.maxN, n-first)
		if e.interrupted("evaluate") {
			return res, trainer.ErrInterrupted
		}
		spec := rolloutSpec{n: part, mode: modeGreedy, level: level, purpose: purpose, round: round, untilDone: true}
		// The kernel draws the seed task's episodes 0..part−1; the host every
		// other part, and every other task's.
		if e.hostDraw || first > 0 {
			if err := e.drawEvaluation(first, part, level, round, split); err != nil {
				return res, err
			}
			spec.givenTasks = true
		}
		if e.interrupted("rollout") {
			return res, trainer.ErrInterrupted
		}
		nb, err := e.rollout(spec)
		if err == nil {
			err = e.finish(nb, false, 0)
		}
		if err != nil {
			return res, err
		}
		reward += e.finHost[finReward]
		solved += e.finHost[finSolved]
	}
	res.MeanReward = reward / float64(n)
	res.SolveRate = solved / float64(n)
	return res, nil
}

// drawEvaluation draws, on the host, episodes first … first+n−1 of an
// evaluation of level on round from split, and uploads them (drawWith).
// Its counters are copied into the drawer (hostdraw.go): a closure would
// be allocated on every evaluation.
func (e *engine) drawEvaluation(first, n, level int, round uint32, split task.Split) error {
	d := e.drawer()
	d.evaluation = evaluationDraws{e: e, round: round, first: first, purpose: enginekit.EvalPurpose(level), level: level, split: split}
	return e.drawWith(n, d.evaluationDraw)
}

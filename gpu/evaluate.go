//go:build cgo

package gpu

// Evaluation: greedy episodes of a level, drawn from a split.

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// evaluate plays n greedy episodes of level on round of the evaluation
// stream, drawn from split. An interrupt is checked before the draw, between
// host-drawn parts and before the rollout launch.
func (e *engine) evaluate(level, n int, round uint32, split task.Split) (trainer.EvalResult, error) {
	res := trainer.EvalResult{Level: level, Episodes: n}
	if n <= 0 {
		return res, nil
	}
	if e.interrupted("evaluate") {
		return res, trainer.ErrInterrupted
	}
	spec := rolloutSpec{n: n, mode: modeGreedy, level: level, purpose: enginekit.EvalPurpose(level), round: round}
	if e.hostDraw {
		if err := e.drawOnHost(n, round, enginekit.EvalPurpose(level), func(int) int { return level }, split); err != nil {
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
	res.MeanReward = e.finHost[finReward] / float64(n)
	res.SolveRate = e.finHost[finSolved] / float64(n)
	return res, nil
}

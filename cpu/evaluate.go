package cpu

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// evaluate plays episodes greedy episodes of level on tasks drawn from round
// of the evaluation stream, in parallel chunks (none when the level has no
// items in split: an Itemized task's). It changes nothing in the model. An interrupt (SetInterrupt) stops it between steps: false.
func (e *Engine) evaluate(level, episodes int, round uint32, split task.Split) (trainer.EvalResult, bool) {
	res := trainer.EvalResult{Level: level, Episodes: episodes}
	if task.Items(e.task, level, split) == 0 {
		res.Episodes = 0 // nothing of the level is in the split (trainer.EvalResult)
	}
	if res.Episodes <= 0 {
		return res, true
	}
	j := &e.eval
	*j = evalJob{e: e, level: level, round: round, split: split}
	if !e.pool.run(j, episodes) {
		return res, false
	}
	res.MeanReward = j.rewardSum / float64(episodes)
	res.SolveRate = float64(j.solved) / float64(episodes)
	return res, true
}

// EvaluateAll evaluates every level on the same round (trainer.Engine); an
// interrupt stops it between steps with trainer.ErrInterrupted.
func (e *Engine) EvaluateAll(episodes int, round uint32, split task.Split) ([]trainer.EvalResult, error) {
	out := make([]trainer.EvalResult, len(e.task.Levels()))
	for s := range out {
		var ok bool
		if out[s], ok = e.evaluate(s, episodes, round, split); !ok {
			return nil, trainer.ErrInterrupted
		}
	}
	return out, nil
}

// evalJob is one evaluation's pass over its chunks.
type evalJob struct {
	e         *Engine
	level     int
	round     uint32
	split     task.Split
	rewardSum float64
	solved    int
}

func (j *evalJob) work(w *worker, r *result) {
	e, first, n := j.e, r.first, r.n
	for b := 0; b < n; b++ {
		w.tasks[b] = e.task.Draw(e.key, j.round, uint32(first+b), enginekit.EvalPurpose(j.level), j.level, j.split)
	}
	if !w.playGreedily(e.model, n, e.stopEvaluating) {
		r.cut = true
		return
	}
	r.rsum = 0
	for b := 0; b < n; b++ {
		r.rsum += w.steps.episodeReturn(n, w.ws.T, b)
		r.solved[b] = w.env.Correct(b)
	}
}

func (j *evalJob) merge(r *result) {
	j.rewardSum += r.rsum
	for _, s := range r.solved[:r.n] {
		if s {
			j.solved++
		}
	}
}

package cpu

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// evaluate plays episodes greedy episodes of level on tasks drawn from round
// of the evaluation stream, in parallel chunks (none when the level has no
// items in split: an Itemized task's). It changes nothing in the model. An
// interrupt (SetInterrupt) stops it between steps: trainer.ErrInterrupted; a
// task that breaks its contract or panics: that error.
func (e *Engine) evaluate(level, episodes int, round uint32, split task.Split) (trainer.EvalResult, error) {
	res := trainer.EvalResult{Level: level, Episodes: episodes}
	if task.Items(e.task, level, split) == 0 {
		res.Episodes = 0 // nothing of the level is in the split (trainer.EvalResult)
	}
	if res.Episodes <= 0 {
		return res, nil
	}
	j := &e.eval
	*j = evalJob{e: e, level: level, round: round, split: split}
	if err := e.pool.run(j, episodes); err != nil {
		return res, err
	}
	res.MeanReward = j.rewardSum / float64(episodes)
	res.SolveRate = float64(j.solved) / float64(episodes)
	return res, nil
}

// EvaluateAll evaluates every level on the same round (trainer.Engine); an
// interrupt stops it between steps with trainer.ErrInterrupted.
func (e *Engine) EvaluateAll(episodes int, round uint32, split task.Split) ([]trainer.EvalResult, error) {
	out := make([]trainer.EvalResult, len(e.task.Levels()))
	for s := range out {
		var err error
		if out[s], err = e.evaluate(s, episodes, round, split); err != nil {
			return nil, err
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
		if r.err = w.check.Drawn(&w.tasks[b], j.level); r.err != nil {
			return
		}
	}
	if !w.playGreedily(e.model, n, e.stopEvaluating) {
		r.cut = true
		return
	}
	r.rsum = 0
	for b := 0; b < n; b++ {
		g := w.steps.episodeReturn(n, w.ws.T, b)
		if r.err = w.check.Reward(g, int32(j.level)); r.err != nil {
			return
		}
		r.rsum += g
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

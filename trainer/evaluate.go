package trainer

import (
	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
)

// EvalResult is a greedy evaluation of one stage.
type EvalResult struct {
	Stage      int     `json:"stage"`
	Episodes   int     `json:"episodes"`
	MeanReward float64 `json:"mean_reward"` // the seed's "acc" (can exceed 1)
	SolveRate  float64 `json:"solve_rate"`  // fraction answered correctly
}

// Rounds of the random stream reserved for evaluation, far from any update
// number, so evaluating never shifts training's numbers. Every engine uses
// them.
const (
	FinalRound   = 0xFFFFFFF0
	ExplainRound = 0xFFFFFFF1
)

// EvalPurpose gives every stage its own evaluation task stream.
func EvalPurpose(stage int) rng.Purpose { return rng.PurposeEval + rng.Purpose(stage<<8) }

// Evaluate plays episodes greedy episodes of stage on tasks drawn from round
// of the evaluation stream, in parallel chunks. It changes nothing in the model.
func (t *Trainer) Evaluate(stage, episodes int, round uint32) EvalResult {
	res := EvalResult{Stage: stage, Episodes: episodes}
	if episodes <= 0 {
		return res
	}
	j := &t.eval
	*j = evalJob{t: t, stage: stage, round: round}
	t.pool.run(j, episodes)
	res.MeanReward = j.rewardSum / float64(episodes)
	res.SolveRate = float64(j.solved) / float64(episodes)
	return res
}

// evalJob is one evaluation's pass over its chunks.
type evalJob struct {
	t         *Trainer
	stage     int
	round     uint32
	rewardSum float64
	solved    int
}

func (j *evalJob) work(w *worker, r *result) {
	t, first, n := j.t, r.first, r.n
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		w.tasks[b] = env.DrawTask(t.key, j.round, uint32(first+b), EvalPurpose(j.stage), j.stage)
		w.setContext(b, w.tasks[b])
	}
	w.ws.Forward(t.model.params, t.model.derived, gru.Greedy, gru.Stream{})
	r.rsum = 0
	for b := 0; b < n; b++ {
		o := env.Run(w.tasks[b], w.episodeProgram(b))
		r.rsum += o.Reward
		r.solved[b] = o.Correct
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

// EvaluateAll evaluates every stage on the same round.
func (t *Trainer) EvaluateAll(episodes int, round uint32) [env.NumStages]EvalResult {
	var out [env.NumStages]EvalResult
	for s := range out {
		out[s] = t.Evaluate(s, episodes, round)
	}
	return out
}

// FinalEvaluation is the run's closing measurement on its own stream.
func (t *Trainer) FinalEvaluation(episodes int) [env.NumStages]EvalResult {
	return t.EvaluateAll(episodes, FinalRound)
}

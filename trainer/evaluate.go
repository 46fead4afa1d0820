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
// number, so evaluating never shifts training's numbers.
const (
	finalRound   = 0xFFFFFFF0
	explainRound = 0xFFFFFFF1
)

// evalPurpose gives every stage its own task stream.
func evalPurpose(stage int) rng.Purpose { return rng.PurposeEval + rng.Purpose(stage<<8) }

// Evaluate plays episodes greedy episodes of stage on tasks drawn from round
// of the evaluation stream. It changes nothing in the model.
func (t *Trainer) Evaluate(stage, episodes int, round uint32) EvalResult {
	res := EvalResult{Stage: stage, Episodes: episodes}
	var rsum float64
	var solved int
	for first := 0; first < episodes; first += t.ws.Cap {
		n := min(t.ws.Cap, episodes-first)
		t.ws.Reset(n)
		for b := 0; b < n; b++ {
			t.tasks[b] = env.DrawTask(t.key, round, uint32(first+b), evalPurpose(stage), stage)
			t.setContext(b, t.tasks[b])
		}
		t.ws.Forward(t.Params, t.derived, gru.Greedy, gru.Stream{})
		for b := 0; b < n; b++ {
			o := env.Run(t.tasks[b], t.episodeProgram(b))
			rsum += o.Reward
			if o.Correct {
				solved++
			}
		}
	}
	if episodes > 0 {
		res.MeanReward = rsum / float64(episodes)
		res.SolveRate = float64(solved) / float64(episodes)
	}
	return res
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
	return t.EvaluateAll(episodes, finalRound)
}

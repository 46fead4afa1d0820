package trainer

import "github.com/simdrl/simdrl/rng"

// EvalResult is a greedy evaluation of one stage.
type EvalResult struct {
	Stage      int     `json:"stage"`
	Episodes   int     `json:"episodes"`
	MeanReward float64 `json:"mean_reward"` // what seed.py prints as "acc" (can exceed 1)
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

package trainer

// EvalResult is a greedy evaluation of one level.
type EvalResult struct {
	Level      int     `json:"stage"`       // the key keeps the old word: "stage" in the JSON means level
	Episodes   int     `json:"episodes"`    // 0 when the level has nothing in the split (an Itemized task's): its rates are 0 and mean nothing
	MeanReward float64 `json:"mean_reward"` // what seed.py prints as "acc" (can exceed 1)
	SolveRate  float64 `json:"solve_rate"`  // fraction answered correctly
}

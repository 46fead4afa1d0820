package task

// Tally is a solve count: Solved of N instances (of a subset Name, for a
// task.Subsetter's subsets).
type Tally struct {
	Name   string `json:"name,omitempty"`
	N      int    `json:"n"`
	Solved int    `json:"solved"`
}

// Rate is the solve rate, Solved/N (0 when N is 0).
func (t Tally) Rate() float64 {
	if t.N == 0 {
		return 0
	}
	return float64(t.Solved) / float64(t.N)
}

// LevelTally is one level's exhaustive evaluation: every instance of each
// split played greedily once, and the held-out instances' subsets.
type LevelTally struct {
	Level    string  `json:"level"`
	HeldOut  Tally   `json:"held_out"`
	Training Tally   `json:"training"`
	Subsets  []Tally `json:"held_out_subsets,omitempty"` // held-out instances only
	// Transfer is an Itemized task's Transfer split (its held-out pattern or
	// size), nil when the level has none.
	Transfer *Tally `json:"transfer,omitempty"`
	// TransferSubsets are the Transfer split's subsets (a Subsetter's),
	// nil when the level has none.
	TransferSubsets []Tally `json:"transfer_subsets,omitempty"`
	Listed          bool    `json:"listed"` // false: no split could be listed (trainer lists at most 20,000), and nothing was played
	// Unlisted names the splits too large to list, left out while the
	// others were played (the held-out split of an endless generator).
	Unlisted []string `json:"unlisted,omitempty"`
}

// Episode is one program played on one instance and what it earned: what
// an engine records of a training update's episodes, and what a trainer
// replays (a remembered program on a fresh instance).
type Episode struct {
	Instance Instance
	Program  []int32
	Reward   float64
	Correct  bool
}

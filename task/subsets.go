package task

// Subsetter is a task whose evaluations also report subsets of a level's
// instances: the cases where a policy that reads signs most easily breaks
// (calc's ties, zeros and negative intermediates).
type Subsetter interface {
	Task
	// SubsetNames names the subsets, bit i of Subsets for name i.
	SubsetNames() []string
	// Subsets reports which subsets in is in: bit i set for SubsetNames()[i].
	Subsets(in *Instance) uint32
}

// Enumerator is a task whose split of a level can be listed in full, so an
// evaluation can play every instance once instead of sampling.
type Enumerator interface {
	Task
	// Instances lists level's instances of split in a fixed order: at most
	// max of them (0: all).
	Instances(level int, split Split, max int) []Instance
}

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
	Complete bool    `json:"complete"`                   // false: a split was cut short (trainer plays at most 20,000 of each)
}

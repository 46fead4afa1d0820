package tape

import "github.com/simdrl/simdrl/env/internal/holdout"

// Part is the side of a split a member is on.
type Part int

const (
	PartTraining Part = iota
	PartHeldOut       // held-out expressions of a trained size
	PartTransfer      // a size never trained on (the length split)
)

// Parts gives, for each member of a size (Family, in order), its part: at
// a trained size, a fifth of the members (rounded, at least one of a size
// with 3 members or more) held out, those whose spelling hashes lowest
// (holdout.Lowest: FNV-1a), the rest training; at a size not trained,
// every member transfer.
func Parts(members []Member, trained bool) []Part {
	parts := make([]Part, len(members))
	if !trained {
		for i := range parts {
			parts[i] = PartTransfer
		}
		return parts
	}
	spellings := make([]string, len(members))
	for i, m := range members {
		spellings[i] = m.Spelling
	}
	for _, i := range holdout.Lowest(spellings) {
		parts[i] = PartHeldOut
	}
	return parts
}

package tape

import (
	"cmp"
	"slices"
)

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
// (FNV-1a), the rest training; at a size not trained, every member transfer.
func Parts(members []Member, trained bool) []Part {
	parts := make([]Part, len(members))
	if !trained {
		for i := range parts {
			parts[i] = PartTransfer
		}
		return parts
	}
	order := make([]int, len(members))
	hash := make([]uint64, len(members))
	for i := range members {
		order[i], hash[i] = i, fnv1a(members[i].Spelling)
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(hash[a], hash[b]), cmp.Compare(a, b)) })
	for _, i := range order[:heldOutCount(len(members))] {
		parts[i] = PartHeldOut
	}
	return parts
}

// heldOutCount is how many of a size's m members are held out: m/5
// rounded, at least 1 once m ≥ 3 (so that every trained size is evaluated
// and keeps two to train on).
func heldOutCount(m int) int {
	if m < 3 {
		return 0
	}
	return max(1, (m+2)/5)
}

// fnv1a is the 64-bit FNV-1a hash of s.
func fnv1a(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

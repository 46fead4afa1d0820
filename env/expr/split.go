package expr

import (
	"cmp"
	"fmt"
	"slices"
)

// Split is how the family is divided into the members the policy trains on
// and those only evaluations see (a member is one expression: all its
// operand tuples are on the same side).
type Split int

const (
	// SplitExpressions holds out a fifth of each size (rounded, at least one
	// of a size with 3 members or more): the members whose canonical
	// polynomial hashes lowest (FNV-1a of Poly.String), so that the choice
	// depends on what a member computes, not on its spelling or position.
	SplitExpressions Split = iota
	// SplitPattern holds out every member whose representative subtracts a
	// product from a sum (Tree.HasPattern: a+b−c·d): can a policy that has
	// seen a+b−c, a−b·c and (a+b)·c compose them?
	SplitPattern
	// SplitLength trains on the sizes below the largest and holds out the
	// largest: can a policy read and compute one leaf more?
	SplitLength
)

var splitNames = [...]string{"expressions", "pattern", "length"}

func (s Split) String() string {
	if s < 0 || int(s) >= len(splitNames) {
		return fmt.Sprintf("Split(%d)", int(s))
	}
	return splitNames[s]
}

// ParseSplit reads a split's name (String).
func ParseSplit(name string) (Split, error) {
	for i, n := range splitNames {
		if n == name {
			return Split(i), nil
		}
	}
	return 0, fmt.Errorf("%q is not expressions, pattern or length", name)
}

// HeldOut reports, for each member of size n (Family(n), in order), whether
// the split holds it out in a family of sizes 2..maxLeaves.
func (s Split) HeldOut(n, maxLeaves int) []bool {
	members := Family(n)
	held := make([]bool, len(members))
	switch s {
	case SplitExpressions:
		order := make([]int, len(members))
		hash := make([]uint64, len(members))
		for i := range members {
			order[i], hash[i] = i, fnv1a(members[i].Poly.String())
		}
		slices.SortFunc(order, func(a, b int) int { return cmp.Or(cmp.Compare(hash[a], hash[b]), cmp.Compare(a, b)) })
		for _, i := range order[:heldOutCount(len(members))] {
			held[i] = true
		}
	case SplitPattern:
		for i := range members {
			held[i] = members[i].Pattern
		}
	case SplitLength:
		for i := range held {
			held[i] = n == maxLeaves
		}
	}
	return held
}

// heldOutCount is how many of a size's m members the expressions split
// holds out: m/5 rounded, at least 1 once m ≥ 3 (so that every such size is
// evaluated and keeps two to train on).
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

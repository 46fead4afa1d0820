package expr

import (
	"fmt"

	"github.com/simdrl/simdrl/env/internal/holdout"
)

// Split is how the family is divided into the members the policy trains on
// and those only evaluations see (a member is one expression: all its
// operand tuples are on the same side), in three parts (Part): training,
// held out (the headline test, and what a run that stops on its training
// items never reads), and transfer (what the split measures beyond it,
// evaluated at the end only).
type Split int

const (
	// SplitExpressions holds out a fifth of each size (rounded, at least one
	// of a size with 3 members or more): the members whose canonical
	// polynomial hashes lowest (holdout.Lowest of Poly.String), so that the choice
	// depends on what a member computes, not on its spelling or position.
	// It has no transfer part.
	SplitExpressions Split = iota
	// SplitPattern puts every member whose representative subtracts a
	// product from a sum (Tree.HasPattern: a+b−c·d) in the transfer part,
	// and holds out a fifth of the others as SplitExpressions does: can a
	// policy that has seen a+b−c, a−b·c and (a+b)·c compose them?
	SplitPattern
	// SplitLength puts the largest size in the transfer part, and holds out
	// a fifth of every smaller size as SplitExpressions does: can a policy
	// read and compute one leaf more?
	SplitLength
)

// Part is the side of a split a member is on.
type Part int

const (
	PartTraining Part = iota
	PartHeldOut
	PartTransfer
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

// Parts gives, for each member of size n (Family(n), in order), its part
// under the split in a family of sizes 2..maxLeaves.
func (s Split) Parts(n, maxLeaves int) []Part {
	members := Family(n)
	parts := make([]Part, len(members))
	var rest []int // the members not in the transfer part
	for i := range members {
		switch {
		case s == SplitPattern && members[i].Pattern, s == SplitLength && n == maxLeaves:
			parts[i] = PartTransfer
		default:
			rest = append(rest, i)
		}
	}
	keys := make([]string, len(rest))
	for j, i := range rest {
		keys[j] = members[i].Poly.String()
	}
	for _, j := range holdout.Lowest(keys) {
		parts[rest[j]] = PartHeldOut
	}
	return parts
}

package calc

// Subsets of a level's instances for evaluation: where a branching policy
// most easily goes wrong. An instance is in
//
//   - tie: some abs argument is 0, or some max or min has two equal
//     arguments (either branch is right: the observation v=m or v=0 decides
//     nothing);
//   - zero: some shown digit is 0 (the trees' shortcuts, and MUL by 0);
//   - negative: some inner value or branch argument is negative (the branch
//     that abs negates, or a difference that max or min discards).
const (
	SubsetTie      uint32 = 1 << iota // bit 0
	SubsetZero                        // bit 1
	SubsetNegative                    // bit 2
)

// SubsetNames names the subsets' bits, bit i for SubsetNames[i].
var SubsetNames = []string{"tie", "zero", "negative"}

// Subsets is the bitmask of the subsets (SubsetTie, SubsetZero,
// SubsetNegative) the digits are in for the expression. It allocates nothing.
func (e *Expr) Subsets(digits *[MaxVars]int32) uint32 {
	var vals [MaxNodes]int64
	e.evalNodes(digits, &vals)
	var s uint32
	for k := int32(0); k < e.vars; k++ {
		if digits[k] == 0 {
			s |= SubsetZero
		}
	}
	for i := int8(0); i < e.n; i++ {
		nd := &e.nodes[i]
		if nd.kind != nodeVar && i < e.n-1 && vals[i] < 0 {
			s |= SubsetNegative
		}
		switch nd.kind {
		case nodeAbs:
			if vals[nd.l] == 0 {
				s |= SubsetTie
			}
			if vals[nd.l] < 0 {
				s |= SubsetNegative
			}
		case nodeMax, nodeMin:
			if vals[nd.l] == vals[nd.r] {
				s |= SubsetTie
			}
			if vals[nd.l] < 0 || vals[nd.r] < 0 {
				s |= SubsetNegative
			}
		}
	}
	return s
}

// MaxEnumerate is the most instances Levels.Instances lists (a level of
// four digits holds out about 2 000).
const MaxEnumerate = 100_000

// Instances lists the level's instances of the training part (heldOut
// false) or the held-out part, in tuple order (the tuple's number, a the
// least significant digit), at most max of them (0: all, and never more
// than MaxEnumerate).
func (ls Levels) Instances(lv int, heldOut bool, max int) []Instance {
	if max <= 0 || max > MaxEnumerate {
		max = MaxEnumerate
	}
	l := &ls[lv]
	space := tupleSpace(l.Expr.vars)
	var out []Instance
	for idx := uint64(0); idx < space && len(out) < max; idx++ {
		if isHeldOut(l.salt, idx) != heldOut {
			continue
		}
		var d [MaxVars]int32
		tupleDigits(idx, l.Expr.vars, &d)
		out = append(out, ls.Instance(lv, d))
	}
	return out
}

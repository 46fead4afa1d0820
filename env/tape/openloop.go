package tape

// MaxOpenLoopFunctions bounds OpenLoop's enumeration: 2^k choices of a
// member with k functions.
const MaxOpenLoopFunctions = 12

// OpenLoop is the most of member m's instances on the operand tuples draws
// (each at least m.Leaves digits) that a policy blind to the comparisons can
// solve: one that may know the member and where it is in it, but not the
// signs the branching machine shows beside a function. Such a policy fixes
// KEEP or OTHER for each of m's k functions in the order their ")" is
// reached, whatever the operands; OpenLoop plays ShuntingYardBranching with
// each of the 2^k choices in place of the observed one and returns the best
// choice's share of draws solved (1 for a member without functions). ok is
// false when k exceeds MaxOpenLoopFunctions.
func OpenLoop(m *Member, draws [][]int32) (share float64, ok bool) {
	k := 0
	for _, n := range m.nodes {
		if n.op.IsFunction() {
			k++
		}
	}
	if k > MaxOpenLoopFunctions {
		return 0, false
	}
	if len(draws) == 0 {
		return 0, true
	}
	var mc Machine
	mc.Variant = Variant{Branching: true}
	var cells [MaxCells]Cell
	best := 0
	for choice := 0; choice < 1<<k; choice++ {
		solved := 0
		for _, d := range draws {
			mc.Reset(m.Tape(d, cells[:]))
			resolved := 0
			for step := 0; step < 2*MaxCells && !mc.Answered; step++ {
				t := ShuntingYardBranching(mc.Observe())
				if t == KEEP || t == OTHER {
					t = KEEP
					if choice>>resolved&1 == 1 {
						t = OTHER
					}
					resolved++
				}
				mc.Step(t)
			}
			if mc.Answered && mc.Value == m.Eval(d) {
				solved++
			}
		}
		best = max(best, solved)
	}
	return float64(best) / float64(len(draws)), true
}

package calc

// compile translates the expression tree, as spelled, into a program for the
// one value register and the one memory slot, or returns nil: a leaf is
// LOAD, "x op leaf" is x then ADD, SUB or MUL, and "x ± y" for a compound y
// is x, STO, y, then M+V or M−V, where y itself must not need the memory.
// Operands are read in the order they are written, so the result computes
// the expression only when the leaves are spelled a, b, c, … in order; the
// caller checks it with Computes. It is the fallback for budgets above
// MaxSearchLen: a program it finds is a program within the budget, not
// necessarily a shortest one (a*b+c*d-e*f+g*h compiles to 15 tokens).
func compile(e *Expr) []int32 {
	prog, ok := compileNode(e, e.n-1, true, nil)
	if !ok {
		return nil
	}
	return append(prog, ANS)
}

func compileNode(e *Expr, i int8, memory bool, prog []int32) ([]int32, bool) {
	nd := &e.nodes[i]
	if nd.kind == nodeVar {
		return append(prog, LOAD), true
	}
	if nd.kind.branches() {
		return nil, false // a branch: no fixed program (SearchTree)
	}
	prog, ok := compileNode(e, nd.l, memory, prog)
	if !ok {
		return nil, false
	}
	if e.nodes[nd.r].kind == nodeVar {
		return append(prog, map[nodeKind]int32{nodeAdd: ADD, nodeSub: SUB, nodeMul: MUL}[nd.kind]), true
	}
	if !memory || nd.kind == nodeMul {
		return nil, false // no second slot, and no m×v tool
	}
	prog, ok = compileNode(e, nd.r, false, append(prog, STO))
	if !ok {
		return nil, false
	}
	if nd.kind == nodeAdd {
		return append(prog, MADD), true
	}
	return append(prog, MSUB), true
}

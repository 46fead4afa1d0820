package countdown

// The baselines a learned search is measured against (issue 53), each
// playing one pool within a step budget, each token a step: a blind
// fixed-order depth-first search, random legal moves, and random
// well-formed programs (a pass@k without search). The brute-force solver
// is DFS without a budget. They leave p as they found it only when they
// fail; a solved pool is left solved.

// DFS searches p depth-first in token order, skipping illegal moves at no
// cost (as a player with a legal-move mask would), each combination and
// each UNDO one step, and reports whether it solved p within budget steps
// and how many steps it took (budget when it did not). It allocates
// nothing.
func DFS(p *Pool, budget int) (solved bool, steps int) {
	var next [MaxNumbers]int32 // per depth, the next token to try
	u := Undo(p.n)
	if p.Solved() {
		return true, 0
	}
	for steps < budget {
		d := p.depth
		if p.Left() > 1 {
			tok := next[d]
			for ; tok < u; tok++ {
				if m, _ := MoveOf(p.n, tok); p.Apply(m) {
					break
				}
			}
			next[d] = tok + 1
			if tok < u {
				steps++
				if p.Solved() {
					return true, steps
				}
				next[d+1] = 0
				continue
			}
		}
		if d == 0 {
			return false, steps // the whole tree searched
		}
		p.Undo()
		steps++
	}
	return false, budget
}

// Chooser picks a uniform integer in [0, n) for step k of an episode (a
// counter-based stream, so that a baseline is reproducible by its seed).
type Chooser func(k uint32, n int) int

// RandomLegal plays uniformly random legal tokens (UNDO among them) on p
// for up to budget steps and reports whether it solved p.
func RandomLegal(p *Pool, budget int, choose Chooser) bool {
	var legal [MaxMoves]bool
	var toks [MaxMoves]int32
	for k := 0; k < budget; k++ {
		p.Legal(legal[:Moves(p.n)])
		n := 0
		for tok, ok := range legal[:Moves(p.n)] {
			if ok {
				toks[n] = int32(tok)
				n++
			}
		}
		if n == 0 {
			return false
		}
		p.Step(toks[choose(uint32(k), n)])
		if p.Solved() {
			return true
		}
	}
	return false
}

// RandomProgram plays one random well-formed program on p from its start: a
// uniformly random legal combination at each step until one value is left
// (no UNDO: a program, not a search), and reports whether it made the
// target. p is then reset to its start. pass@k is whether any of k such
// programs does.
func RandomProgram(p *Pool, choose Chooser) bool {
	var toks [MaxMoves]int32
	u := Undo(p.n)
	for k := uint32(0); p.Left() > 1; k++ {
		n := 0
		for tok := int32(0); tok < u; tok++ {
			if p.Allows(tok) {
				toks[n] = tok
				n++
			}
		}
		if n == 0 {
			break
		}
		p.Step(toks[choose(k, n)])
	}
	solved := p.Solved()
	for p.Undo() {
	}
	return solved
}

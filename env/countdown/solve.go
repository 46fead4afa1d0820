package countdown

// Restrict narrows a search to see which instances need what: NoMulDiv
// searches with + and − only, WholeOnly with integer intermediates only (the
// 24 Game's "needs fractions" subset).
type Restrict struct {
	NoMulDiv  bool
	WholeOnly bool
}

// Solvable reports whether p can be solved from its current state, by an
// exhaustive depth-first search (the brute-force solver) under r; p is left
// as it was. It allocates nothing.
func Solvable(p *Pool, r Restrict) bool {
	return Solve(p, r, nil) >= 0
}

// Solve is Solvable that also writes a solution's moves into dst (at least
// Left()−1 long, or nil) and returns how many, or −1 when there is none.
// It tries moves in token order, so the solution is the first a fixed-order
// search finds.
func Solve(p *Pool, r Restrict, dst []Move) int {
	if p.Solved() {
		return 0
	}
	if p.Left() <= 1 {
		return -1
	}
	for _, s := range pairSlots[p.n] {
		for op := Op(0); op < NumOps; op++ {
			if r.NoMulDiv && op.MulDiv() {
				continue
			}
			m := Move{s[0], s[1], op}
			v, ok := p.Result(m)
			if !ok || r.WholeOnly && !v.IsInt() {
				continue
			}
			p.Apply(m)
			var rest []Move
			if dst != nil {
				rest = dst[1:]
			}
			k := Solve(p, r, rest)
			p.Undo()
			if k >= 0 {
				if dst != nil {
					dst[0] = m
				}
				return k + 1
			}
		}
	}
	return -1
}

// Reachable calls each with every value p can end on (every number used,
// each once), duplicates included, in the order a fixed-order search meets
// them; p is left as it was.
func Reachable(p *Pool, each func(Value)) {
	if p.Left() == 1 {
		v, _ := p.Last()
		if p.n == 1 {
			v = p.val[0]
		}
		each(v)
		return
	}
	for _, s := range pairSlots[p.n] {
		for op := Op(0); op < NumOps; op++ {
			if p.Apply(Move{s[0], s[1], op}) {
				Reachable(p, each)
				p.Undo()
			}
		}
	}
}

package tape

// Subsets of a branching machine's instances for evaluation (as calc's):
// where a branching policy most easily goes wrong, and how deep the
// expression nests. A tape is in
//
//   - tie: some abs argument is 0, or some max or min has two equal
//     arguments (either branch is right, and the observation's "=" decides
//     nothing);
//   - zero: some digit is 0;
//   - negative: some value but the answer, or some function's argument, is
//     negative (the branch that abs negates, or one max or min discards);
//   - depth 0 … depth 4+: its deepest nesting of brackets, "(" and the
//     functions' (Member.Depth).
const (
	SubsetTie      uint32 = 1 << iota // bit 0
	SubsetZero                        // bit 1
	SubsetNegative                    // bit 2
	SubsetDepth0                      // bits 3..7: depth 0, 1, 2, 3, 4 or more
)

// SubsetNames names the subsets' bits, bit i for SubsetNames[i].
var SubsetNames = []string{"tie", "zero", "negative", "depth 0", "depth 1", "depth 2", "depth 3", "depth 4+"}

// Subsets is the bitmask of the subsets tape is in; 0 for a tape that is
// not a well-formed expression. It allocates nothing.
func Subsets(tape []Cell) uint32 {
	p := subsetParser{cells: tape}
	_, ok := p.expr()
	if !ok || p.i != len(tape) {
		return 0
	}
	s := p.s
	inner := p.negatives
	if p.lastAtTop && p.lastNegative {
		inner-- // the last value computed outside every bracket is the answer
	}
	if inner > 0 {
		s |= SubsetNegative
	}
	return s | SubsetDepth0<<min(p.deepest, 4)
}

// subsetParser reads a tape by recursive descent (expr: term {+− term};
// term: factor {× factor}; factor: digit, (expr), abs(expr), max(expr,expr),
// min(expr,expr)), computing its values as the machine does.
type subsetParser struct {
	cells          []Cell
	i              int
	s              uint32
	depth, deepest int
	negatives      int  // operators' values found negative
	lastAtTop      bool // the last operator's value was computed outside every bracket (then it is the answer's)
	lastNegative   bool // and was negative
}

func (p *subsetParser) peek() Cell {
	if p.i < len(p.cells) {
		return p.cells[p.i]
	}
	return -1
}

// value records a computed value v: a function's argument (arg), or an
// operator's value, the answer's when it is the last one computed outside
// every bracket.
func (p *subsetParser) value(v int64, arg bool) {
	switch {
	case arg && v < 0:
		p.s |= SubsetNegative
	case !arg:
		p.lastAtTop, p.lastNegative = p.depth == 0, v < 0
		if v < 0 {
			p.negatives++
		}
	}
}

func (p *subsetParser) expr() (int64, bool) {
	v, ok := p.term()
	for ok && (p.peek() == Plus || p.peek() == Minus) {
		op := p.cells[p.i]
		p.i++
		var r int64
		r, ok = p.term()
		v = apply(op, v, r)
		p.value(v, false)
	}
	return v, ok
}

func (p *subsetParser) term() (int64, bool) {
	v, ok := p.factor()
	for ok && p.peek() == Times {
		p.i++
		var r int64
		r, ok = p.factor()
		v = apply(Times, v, r)
		p.value(v, false)
	}
	return v, ok
}

func (p *subsetParser) factor() (int64, bool) {
	c := p.peek()
	p.i++
	switch {
	case c.IsDigit():
		if c == 0 {
			p.s |= SubsetZero
		}
		return int64(c), true
	case c == Open || c.IsFunction():
		p.depth++
		p.deepest = max(p.deepest, p.depth)
		a, ok := p.expr()
		var b int64
		if ok && (c == Max || c == Min) {
			ok = p.peek() == Comma
			p.i++
			if ok {
				b, ok = p.expr()
			}
		}
		ok = ok && p.peek() == Close
		p.i++
		p.depth--
		switch {
		case !ok:
			return 0, false
		case c == Abs:
			p.value(a, true)
			if a == 0 {
				p.s |= SubsetTie
			}
			return branch(Abs, a, 0), true
		case c == Max || c == Min:
			p.value(a, true)
			p.value(b, true)
			if a == b {
				p.s |= SubsetTie
			}
			return branch(c, a, b), true
		}
		return a, true
	}
	return 0, false
}

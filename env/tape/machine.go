package tape

// The machine's bounds. Every expression of up to MaxLeaves leaves fits: its
// tape is at most 4·MaxLeaves−5 cells (a pair of parentheses around every
// operator but the root's), with branching at most 5·MaxLeaves−5 (abs( max(
// , ) ) around one node: 5 cells a node besides its leaves), shunting-yard
// holds at most one value per leaf and, on the operator stack, at most two
// entries per node but the root's (an operator and the bracket of its
// right operand: a−(b−(c−…)) and a−abs(b−abs(…)) hold 2·(leaves−1)).
const (
	MaxLeaves = 32
	MaxCells  = 192 // ≥ 5·MaxLeaves−5; a tape packs into task.Instance's 16 words, 4 bits a cell (5 with branching)
	MaxValues = 32  // the value stack's depth: PUSHV on a full stack is invalid
	MaxOps    = 64  // the operator stack's depth: PUSHOP on a full stack is invalid
)

// Machine is the tape, its head and the two stacks (see the package doc for
// the rules). Its zero value is a machine on an empty tape; Reset loads one.
// It allocates nothing.
type Machine struct {
	cells [MaxCells]Cell
	n     int // the tape's length: cells[:n]
	// Head is the cell under the head: 0..n, n being the tape's end.
	Head int
	vals [MaxValues]int64
	// vnode is each value's node: the tape position of the token that roots
	// the subtree it computes (a leaf's digit, an operator), −1 for a value
	// that computes no subtree of the expression.
	vnode [MaxValues]int16
	nv    int
	ops   [MaxOps]int16 // tape positions of the pending operators and "("
	// second marks a pending max( or min( whose "," was consumed: its
	// second argument is being computed (Variant.Branching).
	second [MaxOps]bool
	no     int
	// left and right are the children nodes of each operator position in
	// the expression's tree (reference): an APPLY of that operator is
	// correct when it combines exactly them.
	left, right [MaxCells]int16
	// parent is the operator position whose left child each node is (−1:
	// none), for the unstacked machine's APPLY tools, which have no
	// operator position of their own.
	parent [MaxCells]int16
	// Applied counts the correct APPLYs so far (partial credit).
	Applied int
	// Answered is set by a valid ANS, with Value the value answered.
	Answered bool
	Value    int64
	// Variant is how this machine departs from the strict, fully observed
	// one (its zero value); Reset keeps it.
	Variant Variant
}

// Variant is a machine of issue 38's comparisons, which show what the
// strict rules and the stacks' observation buy.
type Variant struct {
	// Loose rules (the probe's loose tape): NEXT moves the head past any
	// cell, and POPPAREN pops a "(" on top wherever the head is (passing a
	// ")" under the head as the strict one does), so a token can be
	// skipped and the brackets' depth kept in h.
	Loose bool
	// Blind: the observation leaves out the operator stack's top (it reads
	// as empty), so the pending operators are on the stack but unseen; the
	// token under the head is still observed, as reading needs it.
	Blind bool
	// Unstacked: no operator stack, the pending operators and brackets are
	// left to h. PUSHOP consumes an operator or "(" and keeps nothing,
	// POPPAREN consumes any ")" (nothing to match), APPLY is invalid and
	// ADD, SUB, MUL apply their own operator to the top two values; the
	// observation's stack top always reads as empty.
	Unstacked bool
	// Branching: the tape may hold abs( max( min( and "," (Abs, Max, Min,
	// Comma). PUSHOP pushes a function as it does "(", and consumes a ","
	// when max( or min( is on top (marking its second argument begun); at a
	// ")" with a function on top, KEEP or OTHER resolve it (abs: the top
	// value or its negation; max, min: the right or the left argument).
	// The observation (NumBranchingObservations) shows these cells under
	// the head and, with a function on top and a ")" under the head, the
	// sign of the comparison that decides it. A tape without function
	// cells runs as on the plain machine, but observed in the branching
	// vocabulary.
	Branching bool
	// Headless: the observation leaves out the token under the head (the
	// operator stack's top only, HeadlessObservations), for a policy that
	// has read the expression into h before acting (the task's
	// head=context). The tools and their rules are the strict machine's.
	Headless bool
}

// Observations is the size of the variant's observation vocabulary.
func (v Variant) Observations() int {
	switch {
	case v.Branching:
		return NumBranchingObservations
	case v.Headless:
		return HeadlessObservations
	}
	return NumObservations
}

// ObservationName spells an observation of the variant's vocabulary.
func (v Variant) ObservationName(obs int32) string {
	switch {
	case v.Branching:
		return BranchingObservationName(obs)
	case v.Headless:
		return HeadlessObservationName(obs)
	}
	return ObservationName(obs)
}

// Reset loads tape (copied; at most MaxCells cells: a longer one is cut)
// and empties the stacks; the Variant stays. A tape that is not a well-formed expression
// still runs, but no APPLY on it counts as correct.
func (m *Machine) Reset(tape []Cell) {
	m.n = copy(m.cells[:], tape)
	m.Head, m.nv, m.no, m.Applied, m.Answered, m.Value = 0, 0, 0, 0, false, 0
	reference(m.cells[:m.n], &m.left, &m.right)
	for i := range m.parent {
		m.parent[i] = -1
	}
	for p, l := range m.left {
		if l >= 0 {
			m.parent[l] = int16(p)
		}
	}
}

// Tape is the machine's tape (its own cells: read only).
func (m *Machine) Tape() []Cell { return m.cells[:m.n] }

// Depths are the value and operator stacks' depths.
func (m *Machine) Depths() (values, ops int) { return m.nv, m.no }

// Top is the value on top of the value stack (ok false when it is empty).
func (m *Machine) Top() (v int64, ok bool) {
	if m.nv == 0 {
		return 0, false
	}
	return m.vals[m.nv-1], true
}

// head is the cell under the head and whether the head is at the end.
func (m *Machine) head() (Cell, bool) {
	if m.Head >= m.n {
		return 0, true
	}
	return m.cells[m.Head], false
}

// topOp is the operator stack's top cell (empty: ok false).
func (m *Machine) topOp() (Cell, bool) {
	if m.no == 0 {
		return 0, false
	}
	return m.cells[m.ops[m.no-1]], true
}

// Observe is the observation after the last step: the kind of the token
// under the head × the operator stack's top (NumObservations of them).
func (m *Machine) Observe() int32 {
	c, end := m.head()
	top, ok := m.topOp()
	switch {
	case m.Variant.Branching:
		sign := 0
		if !end && c == Close {
			sign = m.comparison(top) // only where it decides (branchTopKinds)
		}
		return branchHeadKind(c, end)*branchTopKinds + branchTopKind(top, !ok, sign)
	case m.Variant.Headless:
		return topKind(top, !ok)
	}
	return headKind(c, end)*topKinds + topKind(top, !ok || m.Variant.Blind)
}

// comparison is the sign that resolves function f on top: for abs the top
// value's, for max and min that of left − right (compared, never
// subtracted, so that no wrap flips it); 0 where a value is missing.
func (m *Machine) comparison(f Cell) int {
	switch {
	case f == Abs && m.nv >= 1:
		return sign(m.vals[m.nv-1], 0)
	case (f == Max || f == Min) && m.nv >= 2:
		return sign(m.vals[m.nv-2], m.vals[m.nv-1])
	}
	return 0
}

// sign is −1, 0 or 1 as a <, = or > b.
func sign(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Valid reports whether tool t would change the machine (Step's rules).
func (m *Machine) Valid(t Tool) bool {
	c, end := m.head()
	top, any := m.topOp()
	switch t {
	case PUSHV:
		return !end && c.IsDigit() && m.nv < MaxValues
	case PUSHOP:
		if m.Variant.Branching && !end && c == Comma {
			return any && (top == Max || top == Min) && !m.second[m.no-1]
		}
		pushed := c.IsOperator() || c == Open || m.Variant.Branching && c.IsFunction()
		return !end && pushed && (m.Variant.Unstacked || m.no < MaxOps)
	case KEEP, OTHER:
		if !m.Variant.Branching || end || c != Close || !any {
			return false
		}
		return top == Abs && m.nv >= 1 || (top == Max || top == Min) && m.second[m.no-1] && m.nv >= 2
	case APPLY:
		return any && top.IsOperator() && m.nv >= 2
	case ADD, SUB, MUL:
		return m.Variant.Unstacked && m.nv >= 2
	case POPPAREN:
		if m.Variant.Unstacked {
			return !end && c == Close
		}
		return (m.Variant.Loose || !end && c == Close) && any && top == Open
	case ANS:
		return end && !any && m.nv == 1 && !m.Answered
	case NEXT:
		return m.Variant.Loose && !end
	}
	return false
}

// Step runs tool t and reports whether it was valid; an invalid tool (or a
// token that is no tool) changes nothing. On the strict machine every
// token is consumed exactly once (PUSHV, PUSHOP, POPPAREN move the head
// past what they consume, and nothing else moves it), and a ")" is passed
// only by matching its "(" (the loose one: Variant.Loose).
func (m *Machine) Step(t Tool) bool {
	if !m.Valid(t) {
		return false
	}
	switch t {
	case PUSHV:
		m.vals[m.nv], m.vnode[m.nv] = int64(m.cells[m.Head]), int16(m.Head)
		m.nv++
		m.Head++
	case PUSHOP:
		if m.cells[m.Head] == Comma {
			m.second[m.no-1] = true
		} else if !m.Variant.Unstacked {
			m.ops[m.no], m.second[m.no] = int16(m.Head), false
			m.no++
		}
		m.Head++
	case KEEP, OTHER:
		m.resolve(t == KEEP)
	case APPLY:
		m.no--
		p := m.ops[m.no]
		a, b := m.vals[m.nv-2], m.vals[m.nv-1]
		node := int16(-1)
		if m.left[p] >= 0 && m.vnode[m.nv-2] == m.left[p] && m.vnode[m.nv-1] == m.right[p] {
			node = p
			m.Applied++
		}
		m.nv--
		m.vals[m.nv-1], m.vnode[m.nv-1] = apply(m.cells[p], a, b), node
	case ADD, SUB, MUL:
		op := [...]Cell{Plus, Minus, Times}[t-ADD]
		a, b := m.vals[m.nv-2], m.vals[m.nv-1]
		node := int16(-1)
		if l := m.vnode[m.nv-2]; l >= 0 {
			if p := m.parent[l]; p >= 0 && m.right[p] == m.vnode[m.nv-1] && m.cells[p] == op {
				node = p
				m.Applied++
			}
		}
		m.nv--
		m.vals[m.nv-1], m.vnode[m.nv-1] = apply(op, a, b), node
	case POPPAREN:
		if !m.Variant.Unstacked {
			m.no--
		}
		if c, end := m.head(); !end && c == Close {
			m.Head++
		}
	case NEXT:
		m.Head++
	case ANS:
		m.Answered, m.Value = true, m.vals[0]
	}
	return true
}

// resolve pops the function on top and resolves it on the top value(s),
// keeping the top value (abs: x; max, min: the right argument) or the other
// (abs: −x; max, min: the left), and moves the head past its ")". It is
// correct, for partial credit, when its arguments are exactly its own
// subtrees and the value it leaves is the function's.
func (m *Machine) resolve(keep bool) {
	m.no--
	p := m.ops[m.no]
	f := m.cells[p]
	node := int16(-1)
	if f == Abs {
		x := m.vals[m.nv-1]
		v := x
		if !keep {
			v = -x
		}
		if m.left[p] >= 0 && m.vnode[m.nv-1] == m.left[p] && v == branch(Abs, x, 0) {
			node = p
			m.Applied++
		}
		m.vals[m.nv-1], m.vnode[m.nv-1] = v, node
	} else {
		a, b := m.vals[m.nv-2], m.vals[m.nv-1]
		v := b
		if !keep {
			v = a
		}
		if m.left[p] >= 0 && m.vnode[m.nv-2] == m.left[p] && m.vnode[m.nv-1] == m.right[p] && v == branch(f, a, b) {
			node = p
			m.Applied++
		}
		m.nv--
		m.vals[m.nv-1], m.vnode[m.nv-1] = v, node
	}
	m.Head++
}

// branch is a function's value: abs(a) (b unused), max(a, b), min(a, b),
// in int64 wrapping as Go's (abs of the least int64 is itself).
func branch(f Cell, a, b int64) int64 {
	switch f {
	case Abs:
		if a < 0 {
			return -a
		}
		return a
	case Max:
		return max(a, b)
	}
	return min(a, b)
}

// apply is a op b in int64, wrapping as Go's arithmetic does (long products
// of digits overflow; any evaluation order of the same tree wraps alike).
func apply(op Cell, a, b int64) int64 {
	switch op {
	case Plus:
		return a + b
	case Minus:
		return a - b
	}
	return a * b
}

// reference writes the children of every operator of tape's expression
// tree into left and right (−1 everywhere else), by shunting-yard over
// nodes: × binds tighter, all operators associate to the left. A tape that
// is not a well-formed expression leaves every entry −1.
func reference(tape []Cell, left, right *[MaxCells]int16) {
	for i := range left {
		left[i], right[i] = -1, -1
	}
	var vals [MaxValues]int16
	var ops [MaxOps]int16
	var second [MaxOps]bool
	nv, no := 0, 0
	reduce := func() bool {
		if no == 0 || nv < 2 || !tape[ops[no-1]].IsOperator() {
			return false
		}
		no--
		p := ops[no]
		left[p], right[p] = vals[nv-2], vals[nv-1]
		nv--
		vals[nv-1] = p
		return true
	}
	ok := true
	for i := 0; i < len(tape) && ok; i++ {
		switch c := tape[i]; {
		case c.IsDigit():
			ok = nv < MaxValues && (i == 0 || !tape[i-1].IsDigit() && tape[i-1] != Close)
			if ok {
				vals[nv] = int16(i)
				nv++
			}
		case c == Comma:
			for ok && no > 0 && tape[ops[no-1]].IsOperator() {
				ok = reduce()
			}
			ok = ok && no > 0 && (tape[ops[no-1]] == Max || tape[ops[no-1]] == Min) && !second[no-1]
			if ok {
				second[no-1] = true
			}
		case c == Open, c.IsOperator(), c.IsFunction():
			for c.IsOperator() && no > 0 && tape[ops[no-1]].IsOperator() && tape[ops[no-1]].precedence() >= c.precedence() && ok {
				ok = reduce()
			}
			ok = ok && no < MaxOps
			if ok {
				ops[no], second[no] = int16(i), false
				no++
			}
		case c == Close:
			for ok && no > 0 && tape[ops[no-1]].IsOperator() {
				ok = reduce()
			}
			ok = ok && no > 0 && tape[ops[no-1]].isBracket()
			if !ok {
				break
			}
			no--
			switch p := ops[no]; tape[p] {
			case Abs:
				ok = nv >= 1
				if ok {
					left[p] = vals[nv-1]
					vals[nv-1] = p
				}
			case Max, Min:
				ok = second[no] && nv >= 2
				if ok {
					left[p], right[p] = vals[nv-2], vals[nv-1]
					nv--
					vals[nv-1] = p
				}
			}
		default:
			ok = false
		}
	}
	for ok && no > 0 {
		ok = reduce()
	}
	if !ok || nv != 1 {
		for i := range left {
			left[i], right[i] = -1, -1
		}
	}
}

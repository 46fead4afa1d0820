package countdown

import "strings"

// Pool is one game's state: its slots, the target and the moves made
// (the history UNDO pops). The zero Pool is empty; Reset starts one. It
// allocates nothing (but the no-revisit rule's set, once: revisit.go). A
// copy shares that set: copy a pool only while the rule is off.
type Pool struct {
	rules  Rules
	n      int
	val    [MaxNumbers]Value
	live   [MaxNumbers]bool
	target Value
	hist   [MaxNumbers - 1]made
	depth  int
	// The no-revisit rule (revisit.go): on, the set of states reached and
	// the key of the state now.
	noRevisit bool
	seen      *visited
	key       stateKey
}

// made is a move made and what its slots held before it.
type made struct {
	m    Move
	a, b Value
}

// Reset starts p on numbers (at most MaxNumbers) and target under rules.
// The no-revisit rule is off; its set's room is kept (ForbidRevisits).
func (p *Pool) Reset(rules Rules, numbers []int64, target Value) {
	*p = Pool{rules: rules, n: len(numbers), target: target, seen: p.seen}
	for i, v := range numbers {
		p.val[i], p.live[i] = Int(v), true
	}
}

// N is how many numbers the pool started with.
func (p *Pool) N() int { return p.n }

// Left is how many values the pool holds now.
func (p *Pool) Left() int { return p.n - p.depth }

// Depth is how many moves are on the history (UNDO can take back).
func (p *Pool) Depth() int { return p.depth }

// Target is the value to reach.
func (p *Pool) Target() Value { return p.target }

// Value is slot i's value and whether it holds one.
func (p *Pool) Value(i int) (Value, bool) { return p.val[i], p.live[i] }

// Last is the value the last move made (the target's relation to it is
// what a player sees), false at the start.
func (p *Pool) Last() (Value, bool) {
	if p.depth == 0 {
		return Value{}, false
	}
	return p.val[p.hist[p.depth-1].m.I], true
}

// Solved reports whether every number has been combined into one value
// equal to the target.
func (p *Pool) Solved() bool {
	if p.Left() != 1 {
		return false
	}
	v, _ := p.Last()
	if p.n == 1 {
		v = p.val[0]
	}
	return v.Cmp(p.target) == 0
}

// Result is what m would make and whether it is legal: both slots hold
// values and the rules allow the operation on them.
func (p *Pool) Result(m Move) (Value, bool) {
	if m.I < 0 || m.J <= m.I || int(m.J) >= p.n || !p.live[m.I] || !p.live[m.J] {
		return Value{}, false
	}
	return p.rules.Apply(m.Op, p.val[m.I], p.val[m.J])
}

// Apply makes m when it is legal and reports whether it was.
func (p *Pool) Apply(m Move) bool {
	v, ok := p.Result(m)
	if !ok || !p.fresh(m, v) {
		return false
	}
	if p.noRevisit {
		p.key = p.childKey(m, v)
		p.seen.add(p.key)
	}
	p.hist[p.depth] = made{m, p.val[m.I], p.val[m.J]}
	p.depth++
	p.val[m.I], p.live[m.J] = v, false
	return true
}

// Undo takes the last move back and reports whether there was one.
func (p *Pool) Undo() bool {
	if p.depth == 0 {
		return false
	}
	p.depth--
	h := p.hist[p.depth]
	if p.noRevisit {
		p.key = p.key.minus(p.val[h.m.I]).plus(h.a).plus(h.b)
	}
	p.val[h.m.I], p.val[h.m.J], p.live[h.m.J] = h.a, h.b, true
	return true
}

// Step plays token tok (a combination or UNDO) and reports whether it was
// legal; an illegal token changes nothing.
func (p *Pool) Step(tok int32) bool {
	if tok == Undo(p.n) {
		return p.Undo()
	}
	m, ok := MoveOf(p.n, tok)
	return ok && p.Apply(m)
}

// Legal writes into dst[tok] whether each of the pool's tokens
// (Moves(N()) of them: dst is at least that long) is legal now: what
// Allows says of each, pair by pair with the rules' Allowed, which does
// not compute the results (the mask is asked for at every step of every
// episode; TestLegalIsAllows checks the two agree). Under the no-revisit
// rule an allowed combination's result is computed, to name the pool it
// makes.
func (p *Pool) Legal(dst []bool) {
	tok := 0
	for _, s := range pairSlots[p.n] {
		i, j := s[0], s[1]
		live := p.live[i] && p.live[j]
		for op := range NumOps {
			ok := live && p.rules.Allowed(op, p.val[i], p.val[j])
			if ok && p.noRevisit {
				v, _ := p.rules.Apply(op, p.val[i], p.val[j])
				ok = p.fresh(Move{i, j, op}, v)
			}
			dst[tok] = ok
			tok++
		}
	}
	dst[tok] = p.depth > 0 // UNDO
}

// Allows reports whether token tok is legal now: a combination the rules
// allow on two held values (into a state not yet reached, under the
// no-revisit rule), or UNDO after a move.
func (p *Pool) Allows(tok int32) bool {
	if tok == Undo(p.n) {
		return p.depth > 0
	}
	m, ok := MoveOf(p.n, tok)
	if !ok {
		return false
	}
	v, ok := p.Result(m)
	return ok && p.fresh(m, v)
}

// String is the pool's values, "_" for an empty slot, then the target:
// "[12 _ 7] → 19".
func (p *Pool) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < p.n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		if p.live[i] {
			b.WriteString(p.val[i].String())
		} else {
			b.WriteByte('_')
		}
	}
	b.WriteString("] → ")
	b.WriteString(p.target.String())
	return b.String()
}

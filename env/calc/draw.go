package calc

import "github.com/simdrl/simdrl/rng"

// Instance is one episode's task, self-contained: the digits, the target and
// the inner values for partial credit are computed when it is drawn, so
// scoring needs no level table (a CUDA twin copies the struct as it is).
type Instance struct {
	Level  int32 // index in the curriculum it was drawn from
	Vars   int32 // context digits shown
	Budget int32 // tokens the policy writes, ANS included
	Digits [MaxVars]int32
	Target int64
	NInner int32
	Inner  [MaxInner]int64 // values of the expression's inner subexpressions
}

// Context writes the policy's context tokens, the digits followed by CTX,
// into dst and returns how many it wrote (Vars+1).
func (in *Instance) Context(dst []int32) int {
	copy(dst, in.Digits[:in.Vars])
	dst[in.Vars] = CTX
	return int(in.Vars) + 1
}

// maxDrawTries bounds the rejection sampling; the part drawn from has a share
// of at least about 20 %, so all tries fail with probability 0.8^64 ≈ 6e-7,
// and then the draw walks to the next tuple of the part.
const maxDrawTries = 64

// Draw draws an instance of level lv from the counter-based stream: a pure
// function of its arguments, allocating nothing. Training draws (heldOut
// false) only yield tuples of the training part, evaluation draws (heldOut
// true) only tuples of the held-out part. Try t reads two words of
// key.Block(round, episode, t/2, purpose).
func (ls Levels) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, heldOut bool) Instance {
	l := &ls[lv]
	n := l.Expr.vars
	space := tupleSpace(n)
	idx := uint64(0)
	found := false
	var w [4]uint32
	for t := uint32(0); t < maxDrawTries && !found; t++ {
		if t%2 == 0 {
			w = key.Block(round, episode, t/2, purpose)
		}
		idx = below64(w[2*(t%2)], w[2*(t%2)+1], space)
		found = isHeldOut(l.salt, idx) == heldOut
	}
	for i := uint64(0); !found && i < space; i++ {
		idx = (idx + 1) % space
		found = isHeldOut(l.salt, idx) == heldOut
	}
	in := Instance{Level: int32(lv), Vars: n, Budget: int32(l.Budget)}
	tupleDigits(idx, n, &in.Digits)
	in.Target = l.Expr.Eval(&in.Digits)
	in.NInner = l.Expr.Inner(&in.Digits, &in.Inner)
	return in
}

// Instance returns the instance of level lv with the given digits (for tests
// and explanations; digits beyond the level's Vars are ignored).
func (ls Levels) Instance(lv int, digits [MaxVars]int32) Instance {
	l := &ls[lv]
	in := Instance{Level: int32(lv), Vars: l.Expr.vars, Budget: int32(l.Budget)}
	copy(in.Digits[:in.Vars], digits[:in.Vars])
	in.Target = l.Expr.Eval(&in.Digits)
	in.NInner = l.Expr.Inner(&in.Digits, &in.Inner)
	return in
}

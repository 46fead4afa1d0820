package countdown

import "unsafe"

// The no-revisit rule (Pool.ForbidRevisits): a combination whose resulting
// pool the episode has already reached is refused, as a search's closed
// list would skip it. A pool state is the multiset of the pool's values:
// a+b then c+d and c+d then a+b reach one state, and so do the same values
// in other slots, since what can still be made of a pool depends on its
// values alone. The greedy policies trained without it were seen replaying
// one 30-step cycle of combinations and UNDOs to the end of their budget
// (docs/results.md, countdown4).

// stateKey names a multiset of values: the sums, over the values, of two
// independent 64-bit mixes of each (a sum is order-free and counts
// duplicates). Two states share a key with probability about 2^-128 a
// pair: the key stands for the state.
type stateKey struct{ a, b uint64 }

func (k stateKey) plus(v Value) stateKey  { a, b := mixes(v); return stateKey{k.a + a, k.b + b} }
func (k stateKey) minus(v Value) stateKey { a, b := mixes(v); return stateKey{k.a - a, k.b - b} }

// mixes are v's two mixes: splitmix64's finaliser over v's numerator and
// denominator, under two seeds.
func mixes(v Value) (uint64, uint64) {
	x := uint64(v.N)*0x9e3779b97f4a7c15 ^ uint64(v.D)
	return mix64(x ^ 0x243f6a8885a308d3), mix64(x ^ 0x13198a2e03707344)
}

func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// visited is an open-addressed set of state keys, a power of two of slots
// at most half full; the zero key marks an empty slot (a state whose key
// is zero is kept aside in zero).
type visited struct {
	slots []stateKey
	zero  bool
	n     int
}

// slotsFor is the slots a set reset for states states has: a power of two,
// at least 16 and twice states.
func slotsFor(states int) int {
	size := 16
	for size < 2*states {
		size *= 2
	}
	return size
}

// reset empties v with room for states states.
func (v *visited) reset(states int) {
	size := slotsFor(states)
	if len(v.slots) < size {
		v.slots = make([]stateKey, size)
	} else {
		v.slots = v.slots[:size]
		clear(v.slots)
	}
	v.zero, v.n = false, 0
}

// has reports whether k is in v.
func (v *visited) has(k stateKey) bool {
	if k == (stateKey{}) {
		return v.zero
	}
	mask := uint64(len(v.slots) - 1)
	for i := k.a & mask; ; i = (i + 1) & mask {
		switch v.slots[i] {
		case k:
			return true
		case stateKey{}:
			return false
		}
	}
}

// add puts k into v; a full set grows (a pool asked to remember more
// states than it was reset for).
func (v *visited) add(k stateKey) {
	if k == (stateKey{}) {
		v.zero = true
		return
	}
	if 2*(v.n+1) > len(v.slots) {
		old := v.slots
		v.slots, v.n = make([]stateKey, 2*len(old)), 0
		for _, o := range old {
			if o != (stateKey{}) {
				v.add(o)
			}
		}
	}
	mask := uint64(len(v.slots) - 1)
	i := k.a & mask
	for ; v.slots[i] != (stateKey{}); i = (i + 1) & mask {
		if v.slots[i] == k {
			return
		}
	}
	v.slots[i] = k
	v.n++
}

// ForbidRevisits turns the no-revisit rule on for p's episode from its
// state now (normally right after Reset), with room for about moves
// combinations (the step budget): from then on a combination into a state
// p has reached is illegal (Legal, Allows, Apply refuse it), and UNDO
// stays legal. Reset turns the rule off and keeps the set's room, so a
// pool reused episode after episode allocates only the first time.
func (p *Pool) ForbidRevisits(moves int) {
	if p.seen == nil {
		p.seen = new(visited)
	}
	p.seen.reset(moves + 1)
	p.key = stateKey{}
	for i := 0; i < p.n; i++ {
		if p.live[i] {
			p.key = p.key.plus(p.val[i])
		}
	}
	p.seen.add(p.key)
	p.noRevisit = true
}

// RevisitBytes is the memory a pool's no-revisit set holds once
// ForbidRevisits(moves) has been called and an episode of at most moves
// combinations played: the engines' memory estimates count it per game
// (task.GameSized), since it grows with the step budget and the games with
// the chunk.
func RevisitBytes(moves int) int {
	return int(unsafe.Sizeof(visited{})) + slotsFor(moves+1)*int(unsafe.Sizeof(stateKey{}))
}

// NoRevisit reports whether the no-revisit rule is on.
func (p *Pool) NoRevisit() bool { return p.noRevisit }

// childKey is the state m makes, v being its result.
func (p *Pool) childKey(m Move, v Value) stateKey {
	return p.key.minus(p.val[m.I]).minus(p.val[m.J]).plus(v)
}

// fresh reports whether m, making v, reaches a state not yet reached
// (always, with the rule off).
func (p *Pool) fresh(m Move, v Value) bool {
	return !p.noRevisit || !p.seen.has(p.childKey(m, v))
}

// Stuck reports whether no token is legal: at the start, with every
// combination refused (under the no-revisit rule, once every state one
// move away has been reached and left). The search from here is over.
func (p *Pool) Stuck() bool {
	if p.depth > 0 {
		return false
	}
	for tok := range Undo(p.n) {
		if p.Allows(tok) {
			return false
		}
	}
	return true
}

package countdown

import (
	"slices"

	"github.com/simdrl/simdrl/rng"
)

// Countdown's ranges (Stream of Search): numbers 1..99, targets 10..100.
const (
	MinNumber, MaxNumber = 1, 99
	MinTarget, MaxTarget = 10, 100
	// HeldOutTargets is how many target values are held out whole: 10%
	// of the 91, rounded down.
	HeldOutTargets = (MaxTarget - MinTarget + 1) / 10
	// HeldOutOf: one instance in HeldOutOf is held out (besides those of a
	// held-out target).
	HeldOutOf = 5
)

// Instance is a Countdown instance: N numbers (in the order the pool's
// slots hold them) and a target.
type Instance struct {
	N       int
	Numbers [MaxNumbers]int64
	Target  int64
}

// Pool resets p on in under Countdown's rules.
func (in *Instance) Pool(p *Pool) {
	p.Reset(Integers, in.Numbers[:in.N], Int(in.Target))
}

// key is in's identity for the split: its numbers as a multiset (sorted)
// and its target, one base-128 digit each.
func (in *Instance) key() uint64 {
	s := in.Numbers
	slices.Sort(s[:in.N])
	k := uint64(in.N)
	for _, v := range s[:in.N] {
		k = k<<7 | uint64(v)
	}
	return k<<7 | uint64(in.Target)
}

// mix is SplitMix64's finalizer of salt and x: every bit moves the result.
func mix(salt, x uint64) uint64 {
	z := salt ^ (x * 0x9E3779B97F4A7C15)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ z>>31
}

// The split's salts: fixed, so that the split never moves.
const (
	targetSalt   = 0xC0DE_7A26_E75A_1700
	instanceSalt = 0xC0DE_1257_A9CE_0500
)

// heldTargets marks the HeldOutTargets targets whose hash is lowest.
var heldTargets = func() (held [MaxTarget + 1]bool) {
	ts := make([]int64, 0, MaxTarget-MinTarget+1)
	for t := int64(MinTarget); t <= MaxTarget; t++ {
		ts = append(ts, t)
	}
	slices.SortFunc(ts, func(a, b int64) int {
		ha, hb := mix(targetSalt, uint64(a)), mix(targetSalt, uint64(b))
		if ha < hb {
			return -1
		}
		if ha > hb {
			return 1
		}
		return 0
	})
	for _, t := range ts[:HeldOutTargets] {
		held[t] = true
	}
	return held
}()

// NewTarget reports whether target is one of the held-out targets, which
// no training instance has.
func NewTarget(target int64) bool {
	return target >= 0 && target <= MaxTarget && heldTargets[target]
}

// HeldOut reports whether in belongs to the held-out split: its target is
// held out, or its multiset and target hash into the held-out fifth.
func (in *Instance) HeldOut() bool {
	return NewTarget(in.Target) || mix(instanceSalt, in.key())>>32*HeldOutOf>>32 == 0
}

// Solvable reports whether in can be solved under Countdown's rules.
func (in *Instance) Solvable() bool {
	return SolvableNumbers(Integers, in.Numbers[:in.N], in.Target, Restrict{})
}

// NeedsMulDiv reports whether every solution of in multiplies or divides.
func (in *Instance) NeedsMulDiv() bool {
	return !SolvableNumbers(Integers, in.Numbers[:in.N], in.Target, Restrict{NoMulDiv: true})
}

// Draw draws a solvable instance of n numbers from the counter-based
// stream, in the held-out split or the training one: numbers uniform in
// 1..99 and a target uniform in 10..100, from blocks 2·try and 2·try+1 of
// (round, episode, purpose), until one is solvable and in the split
// (rejection sampling; about 4% of 3-number draws are solvable, 14% of
// 4-number ones). It allocates nothing.
func Draw(n int, key rng.Key, round, episode uint32, purpose rng.Purpose, heldOut bool) Instance {
	in := Instance{N: n}
	for try := uint32(0); ; try++ { // ends: the chance of no hit in k tries falls as 0.96^k
		w := key.Block(round, episode, 2*try, purpose)
		t := key.Block(round, episode, 2*try+1, purpose)
		for k := range n {
			in.Numbers[k] = MinNumber + int64(rng.Below(w[k], MaxNumber-MinNumber+1))
		}
		in.Target = MinTarget + int64(rng.Below(t[0], MaxTarget-MinTarget+1))
		if in.HeldOut() == heldOut && in.Solvable() {
			return in
		}
	}
}

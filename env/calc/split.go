package calc

import "fmt"

// Each level's digit tuples are split once and for all into a training part
// (about 80 %) and a held-out part (about 20 %) by a hash of the tuple and the
// function the level computes (functionSalt). The split depends on the
// function, not on the level's position or spelling, so reordering a
// curriculum keeps every level's split, and levels that agree on every tuple
// hold out the same tuples.

// heldOutOf: one tuple in heldOutOf is held out.
const heldOutOf = 5

// exprSalt is FNV-1a of a string (the function's key).
func exprSalt(s string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 0x100000001b3
	}
	return h
}

// isHeldOut reports whether tuple idx (see tupleDigits) is in the held-out part.
func isHeldOut(salt, idx uint64) bool {
	z := salt ^ (idx * 0x9E3779B97F4A7C15)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	return (z>>32)*heldOutOf>>32 == 0
}

// IsHeldOut reports whether the level's digit tuple (digits[:Vars()]) is held out.
func (l *Level) IsHeldOut(digits *[MaxVars]int32) bool {
	return isHeldOut(l.salt, tupleIndex(digits, l.Expr.vars))
}

// splitCountLimit bounds the tuples splitCounts enumerates; beyond it both
// parts are non-empty with certainty for practical purposes (0.8^10^4 ≈ 0).
const splitCountLimit = 10_000

// splitCounts returns the sizes of the training and held-out parts, for
// digit spaces up to splitCountLimit; larger spaces report (1, 1).
func (l *Level) splitCounts() (train, held uint64) {
	space := tupleSpace(l.Expr.vars)
	if space > splitCountLimit {
		return 1, 1
	}
	for idx := uint64(0); idx < space; idx++ {
		if isHeldOut(l.salt, idx) {
			held++
		} else {
			train++
		}
	}
	return train, held
}

// checkSplit refuses a level whose training or held-out part is empty.
func (l *Level) checkSplit() error {
	if train, held := l.splitCounts(); train == 0 || held == 0 {
		return fmt.Errorf("its %d digit tuples do not split into a training and a held-out part (%d and %d); use more variables", tupleSpace(l.Expr.vars), train, held)
	}
	return nil
}

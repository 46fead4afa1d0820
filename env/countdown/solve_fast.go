package countdown

// SolvableNumbers reports whether numbers (at most MaxNumbers) make target
// under rules and r, every number used once: Solvable on a fresh pool, by
// a search on compact arrays instead of the pool's reduced rationals and
// history, about ten times faster (BenchmarkSolvable). Drawing Countdown's
// instances rejects some twenty unsolvable ones each, and the 24 Game's
// split solves all 1,820 hands; TestSolvableNumbers checks it against
// Solvable.
func SolvableNumbers(rules Rules, numbers []int64, target int64, r Restrict) bool {
	var v [MaxNumbers]frac
	for i, x := range numbers {
		v[i] = frac{x, 1}
	}
	if rules == Integers {
		return solvableInts(v, len(numbers), target, r.NoMulDiv)
	}
	return solvableFracs(v, len(numbers), target, r)
}

// frac is an unreduced rational n/d, d > 0: the 24 Game's values stay far
// below 2^31 without reducing (four values of at most 13).
type frac struct{ n, d int64 }

// solvableInts is Countdown's search (Integers: non-negative integers,
// exact divisions); a value's d is 1. It searches the integers alone
// (ints), whose copies are half as long.
func solvableInts(v [MaxNumbers]frac, n int, target int64, noMulDiv bool) bool {
	var w ints
	for i := range n {
		w[i] = v[i].n
	}
	if n == 1 {
		return w[0] == target
	}
	return w.solvable(n, target, noMulDiv)
}

// ints is a pool's values under Integers, passed by value: through a
// pointer, the recursion's copies would escape to the heap.
type ints [MaxNumbers]int64

// solvable is solvableInts on n ≥ 2 values: a pair at a time down to the
// last two, which pairMakes answers without a call per result (the leaves
// are most of the tree, and an unsolvable draw, most of a draw's tries,
// visits all of it).
func (v ints) solvable(n int, target int64, noMulDiv bool) bool {
	if n == 2 {
		return pairMakes(v[0], v[1], target, noMulDiv)
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := v[i], v[j]
			if a < b {
				a, b = b, a
			}
			// the results Integers allows, b ≤ a: b−a only when equal (0, as a−b)
			var r [4]int64
			k := 0
			r[k], k = a+b, k+1
			r[k], k = a-b, k+1
			if !noMulDiv {
				r[k], k = a*b, k+1
				if b != 0 && a%b == 0 {
					r[k], k = a/b, k+1
				}
			}
			w := v
			w[j] = w[n-1] // the last value moves into j, the result into i
			for _, x := range r[:k] {
				w[i] = x
				if w.solvable(n-1, target, noMulDiv) {
					return true
				}
			}
		}
	}
	return false
}

// pairMakes reports whether one operation Integers allows makes target of
// a and b (non-negative): a sum, a difference (the larger first), a
// product or an exact quotient (b·target = a, b ≠ 0).
func pairMakes(a, b, target int64, noMulDiv bool) bool {
	if a < b {
		a, b = b, a
	}
	if a+b == target || a-b == target {
		return true
	}
	return !noMulDiv && (a*b == target || b != 0 && b*target == a)
}

// solvableFracs is the 24 Game's search (Fractions: any rational, no
// division by zero), with r's restrictions.
func solvableFracs(v [MaxNumbers]frac, n int, target int64, r Restrict) bool {
	if n == 1 {
		return v[0].n == target*v[0].d
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := v[i], v[j]
			var res [NumOps]frac
			k := 0
			res[k], k = frac{a.n*b.d + b.n*a.d, a.d * b.d}, k+1
			res[k], k = frac{a.n*b.d - b.n*a.d, a.d * b.d}, k+1
			res[k], k = frac{b.n*a.d - a.n*b.d, a.d * b.d}, k+1
			if !r.NoMulDiv {
				res[k], k = frac{a.n * b.n, a.d * b.d}, k+1
				if b.n != 0 {
					res[k], k = signed(a.n*b.d, a.d*b.n), k+1
				}
				if a.n != 0 {
					res[k], k = signed(b.n*a.d, b.d*a.n), k+1
				}
			}
			w := v
			w[j] = w[n-1]
			for _, x := range res[:k] {
				if r.WholeOnly && x.n%x.d != 0 {
					continue
				}
				w[i] = x
				if solvableFracs(w, n-1, target, r) {
					return true
				}
			}
		}
	}
	return false
}

// signed is n/d with a positive denominator (d ≠ 0).
func signed(n, d int64) frac {
	if d < 0 {
		return frac{-n, -d}
	}
	return frac{n, d}
}

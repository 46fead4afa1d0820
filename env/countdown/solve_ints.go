package countdown

// solvableInts is Solvable for a Countdown pool from its start, on a
// compact array of values instead of the pool's rationals and history: the
// same search (each pair, each operation Integers allows, every number
// used), several times faster, since drawing an instance rejects some twenty
// unsolvable ones (Draw). TestSolvableInts checks it against Solve. v is
// passed by value: through a pointer, the recursion's copies would escape
// to the heap.
func solvableInts(v [MaxNumbers]int64, n int, target int64, noMulDiv bool) bool {
	if n == 1 {
		return v[0] == target
	}
	if n == 2 {
		a, b := v[0], v[1]
		if a < b {
			a, b = b, a
		}
		return a+b == target || a-b == target ||
			!noMulDiv && (a*b == target || b != 0 && a%b == 0 && a/b == target)
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
				if solvableInts(w, n-1, target, noMulDiv) {
					return true
				}
			}
		}
	}
	return false
}

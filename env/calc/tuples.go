package calc

import "math/bits"

// A digit tuple of a level with n variables is also a number in [0, 10^n):
// digit k (variable 'a'+k) is the k-th decimal digit from the least
// significant end. Draw and the split both work on that number.

// tupleSpace is 10^n, the number of digit tuples of n variables.
func tupleSpace(n int32) uint64 {
	s := uint64(1)
	for i := int32(0); i < n; i++ {
		s *= 10
	}
	return s
}

// tupleDigits writes the digits of tuple idx into d[:n] and zeroes the rest.
func tupleDigits(idx uint64, n int32, d *[MaxVars]int32) {
	for k := int32(0); k < MaxVars; k++ {
		if k < n {
			d[k] = int32(idx % 10)
			idx /= 10
		} else {
			d[k] = 0
		}
	}
}

// below64 maps two random words to [0, n) by a 64×64→128 multiply; for
// n ≤ 10^8 the bias is below 1e-11.
func below64(w0, w1 uint32, n uint64) uint64 {
	hi, _ := bits.Mul64(uint64(w0)<<32|uint64(w1), n)
	return hi
}

// tupleIndex is the inverse of tupleDigits.
func tupleIndex(d *[MaxVars]int32, n int32) uint64 {
	idx := uint64(0)
	for k := n - 1; k >= 0; k-- {
		idx = idx*10 + uint64(d[k])
	}
	return idx
}

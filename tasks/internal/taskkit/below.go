package taskkit

import "math/bits"

// Below maps two random words to [0, n) by a 64×64→128 multiply.
func Below(w0, w1 uint32, n uint64) uint64 {
	hi, _ := bits.Mul64(uint64(w0)<<32|uint64(w1), n)
	return hi
}

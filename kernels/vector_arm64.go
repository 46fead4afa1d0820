//go:build !purego

package kernels

// NEON tanh, exp and dst += src over whole buffers (vector_arm64.s): n is
// len(dst); Exp and Add check that src has that many.

//go:noescape
func tanhNEON(dst, src []float32)

//go:noescape
func expNEON(dst, src []float32)

//go:noescape
func addNEON(dst, src []float32)

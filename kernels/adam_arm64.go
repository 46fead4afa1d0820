//go:build !purego

package kernels

// NEON Adam and Σx² (adam_arm64.s); Adam and SumSquares check the sizes.

//go:noescape
func adamNEON(p, g, m, v []float32, gradScale, beta1, beta2, eps, stepSize, bc2Sqrt float32)

//go:noescape
func sumSquaresNEON(x []float32) float64

//go:build !purego

package kernels

// The NEON GRU gate step and its backward (gru_arm64.s) take the exported
// wrappers' arguments as they are: sizes and tokens are checked there.

//go:noescape
func gruForwardNEON(rows, d int, table []float32, tokens []int32, gh, hPrev, hNext, act []float32)

//go:noescape
func gruBackNEON(rows, d int, tokens []int32, act, gh, hPrev, dhNext, dgh, dhPrev, dTable []float32)

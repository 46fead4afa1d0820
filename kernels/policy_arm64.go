//go:build !purego

package kernels

// The NEON policy head (policy_arm64.s) takes the exported wrappers'
// arguments as they are: sizes and actions are checked there.

//go:noescape
func policyForwardNEON(rows, cols int, logits []float32, ld int, logp, ent []float32)

//go:noescape
func policyBackwardNEON(rows, cols int, logp []float32, actions []int32, dlogp, dent, dlogits []float32, ld int)

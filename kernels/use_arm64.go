//go:build !purego

package kernels

// useNEON installs the NEON kernels into s: every slot of the set is
// assembly (gemm_arm64.s, gru_arm64.s, policy_arm64.s, adam_arm64.s,
// vector_arm64.s).
func useNEON(s *implementation) {
	s.sgemmNN = sgemmNNNEON
	s.sgemmNT = sgemmNTNEON
	s.sgemmTN = sgemmTNNEON
	s.tnBlock = func(n, k int) int { return neonKC } // sgemmNEON's fixed k blocks
	s.gruForward = gruForwardNEON
	s.gruBack = gruBackNEON
	s.policyFwd = policyForwardNEON
	s.policyBack = policyBackwardNEON
	s.adam = adamNEON
	s.sumSquares = sumSquaresNEON
	s.tanh = tanhNEON
	s.exp = expNEON
	s.add = addNEON
}

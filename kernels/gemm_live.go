package kernels

// SgemmTNLive is SgemmTN (C = alpha·Aᵀ·B + beta·C) for operands whose
// steps of k are known to contribute nothing wherever live[p] is false
// (A's row p or B's row p is zero there): it computes from the live steps
// only and gives SgemmTN's result (equal as floats; a sum of nothing but
// zeros may differ in its sign). Every set sums an element of C over k in
// blocks (its tnBlock), each from zero and in order, then adds it onto C;
// a product with zero leaves a block's sum as it is, so each block's live
// steps are gathered into one block of their own and summed by SgemmTN.
// The gathering copies each live row of A and B once: it pays where a good
// part of the steps is dead (the rows of a rollout that stopped, gru's
// Retire), not otherwise. Its scratch grows to the largest call's and is
// reused: the steady state allocates nothing.
func SgemmTNLive(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int, live []bool) {
	checkGemm("SgemmTNLive", m, n, k, a, lda, k, m, b, ldb, k, n, c, ldc)
	mustLen("SgemmTNLive", "live", len(live), k)
	if m == 0 || n == 0 {
		return
	}
	tnLive(&impl, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, live)
}

// tnLive is SgemmTNLive on set s (sizes checked, m, n > 0).
func tnLive(s *implementation, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int, live []bool) {
	if k == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	step := s.tnBlock(n, k)
	g := tnLiveScratch.get()
	defer tnLiveScratch.put(g)
	rows := min(step, k)
	if need := rows * (m + n); cap(g.buf) < need {
		g.buf = make([]float32, need)
	}
	ga, gb := g.buf[:rows*m], g.buf[rows*m:rows*(m+n)]
	for pc := 0; pc < k; pc += step {
		bt := beta
		if pc > 0 {
			bt = 1 // later k blocks accumulate onto the first, as in SgemmTN
		}
		kl := 0
		for p := pc; p < min(pc+step, k); p++ {
			if live[p] {
				copy(ga[kl*m:(kl+1)*m], a[p*lda:p*lda+m])
				copy(gb[kl*n:(kl+1)*n], b[p*ldb:p*ldb+n])
				kl++
			}
		}
		if kl == 0 {
			scaleC(m, n, bt, c, ldc) // the block's sum is zero
			continue
		}
		s.sgemmTN(m, n, kl, alpha, ga[:kl*m], m, gb[:kl*n], n, bt, c, ldc)
	}
}

// tnLiveBuf is SgemmTNLive's gathering space: a block's live rows of A,
// then of B.
type tnLiveBuf struct{ buf []float32 }

var tnLiveScratch scratch[tnLiveBuf]

// tnBlockGeneric: the generic TN sums every element in one chain from
// beta·C, so any blocks give its result; these bound the gathering space.
func tnBlockGeneric(n, k int) int { return min(k, 256) }

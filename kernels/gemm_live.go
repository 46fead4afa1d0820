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
	tnLive(&impl, m, n, k, alpha, a, lda, false, b, ldb, false, beta, c, ldc, live)
}

// SgemmTNLiveRows is SgemmTNLive for operands kept as their live rows
// only: with aRows, a holds A's rows p where live[p] is set, in order of p,
// lda apart (the dead rows, zero, are not stored), and with bRows the same
// for b. An operand so kept is read where it lies, never copied: a caller
// that writes the live rows of a result contiguously (gru's gate
// gradients, step after step) saves both a scatter and the gathering. The
// result is SgemmTNLive's on the full operands, bit for bit.
func SgemmTNLiveRows(m, n, k int, alpha float32, a []float32, lda int, aRows bool, b []float32, ldb int, bRows bool, beta float32, c []float32, ldc int, live []bool) {
	mustLen("SgemmTNLiveRows", "live", len(live), k)
	kl := 0
	for _, l := range live[:k] {
		if l {
			kl++
		}
	}
	ar, br := k, k
	if aRows {
		ar = kl
	}
	if bRows {
		br = kl
	}
	checkGemm("SgemmTNLiveRows", m, n, k, a, lda, ar, m, b, ldb, br, n, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	tnLive(&impl, m, n, k, alpha, a, lda, aRows, b, ldb, bRows, beta, c, ldc, live)
}

// tnLive is SgemmTNLiveRows on set s (sizes checked, m, n > 0).
func tnLive(s *implementation, m, n, k int, alpha float32, a []float32, lda int, aRows bool, b []float32, ldb int, bRows bool, beta float32, c []float32, ldc int, live []bool) {
	if k == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	step := s.tnBlock(n, k)
	var ga, gb []float32 // the gathering space of a block's live rows
	if !aRows || !bRows {
		g := tnLiveScratch.get()
		defer tnLiveScratch.put(g)
		rows := min(step, k)
		if need := rows * (m + n); cap(g.buf) < need {
			g.buf = make([]float32, need)
		}
		ga, gb = g.buf[:rows*m], g.buf[rows*m:rows*(m+n)]
	}
	kept := 0 // the next stored row of a kept operand
	for pc := 0; pc < k; pc += step {
		bt := beta
		if pc > 0 {
			bt = 1 // later k blocks accumulate onto the first, as in SgemmTN
		}
		kl := 0
		for p := pc; p < min(pc+step, k); p++ {
			if !live[p] {
				continue
			}
			if !aRows {
				copy(ga[kl*m:(kl+1)*m], a[p*lda:p*lda+m])
			}
			if !bRows {
				copy(gb[kl*n:(kl+1)*n], b[p*ldb:p*ldb+n])
			}
			kl++
		}
		if kl == 0 {
			scaleC(m, n, bt, c, ldc) // the block's sum is zero
			continue
		}
		var ba, bb []float32
		sa, sb := m, n
		if aRows {
			ba, sa = a[kept*lda:(kept+kl-1)*lda+m], lda
		} else {
			ba = ga[:kl*m]
		}
		if bRows {
			bb, sb = b[kept*ldb:(kept+kl-1)*ldb+n], ldb
		} else {
			bb = gb[:kl*n]
		}
		kept += kl
		s.sgemmTN(m, n, kl, alpha, ba, sa, bb, sb, bt, c, ldc)
	}
}

// tnLiveBuf is SgemmTNLive's gathering space: a block's live rows of A,
// then of B.
type tnLiveBuf struct{ buf []float32 }

var tnLiveScratch scratch[tnLiveBuf]

// tnBlockGeneric: the generic TN sums every element in one chain from
// beta·C, so any blocks give its result; these bound the gathering space.
func tnBlockGeneric(n, k int) int { return min(k, 256) }

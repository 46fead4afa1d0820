//go:build !purego

package kernels

// NEON GEMM: the classic Goto/BLIS structure. Blocks of op(B) (kc×nc) and
// op(A) (mc×kc) are packed into k-major panels of 12 columns and 8 rows, and
// an 8×12 register-blocked micro-kernel (gemm_arm64.s, FMLA by element over
// 24 accumulators) runs over every pair of panels. Full 4-row/4-column
// groups are packed in assembly (packT4 transposes, packN4 copies); partial
// panels are zero-padded in Go, and partial tiles go through a small tile
// buffer so that nothing outside the m×n block of C is touched.
//
// Block sizes: kc = 288 covers the model's k of 96 and 288 in one pass (one
// 8- and one 12-wide panel, 9 KiB + 14 KiB, stay in L1), mc = 64 rows of A
// (72 KiB) in L2, nc = 96 columns of B (108 KiB).

const (
	neonMR = 8
	neonNR = 12
	neonKC = 288
	neonMC = 64
	neonNC = 96
)

//go:noescape
func sgemmKernel8x12(kc int, a, b, c *float32, ldc int, alpha, beta float32)

//go:noescape
func packT4(dst *float32, dstStride int, src *float32, ld int, kc4 int)

//go:noescape
func packN4(dst *float32, dstStride int, src *float32, ld int, kc int)

// gemmBuffers are the fixed-size packing buffers, reused from call to call
// (scratch.go).
type gemmBuffers struct {
	a [neonMC * neonKC]float32
	b [neonKC * neonNC]float32
}

var gemmPool scratch[gemmBuffers]

func sgemmNNNEON(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemmNEON(true, false, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func sgemmNTNEON(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemmNEON(true, true, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func sgemmTNNEON(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemmNEON(false, false, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemmNEON computes C = alpha·op(A)·op(B) + beta·C. aKContig says A is
// stored m×k (row i contiguous in p: the NN and NT forms), otherwise k×m
// (TN); bKContig says B is stored n×k (NT), otherwise k×n. Sizes have been
// checked by the exported wrapper, and m, n > 0.
func sgemmNEON(aKContig, bKContig bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if k == 0 {
		scaleC(m, n, beta, c, ldc) // alpha·(empty sum) = 0
		return
	}
	buf := gemmPool.get()
	var tile [neonMR * neonNR]float32
	for jc := 0; jc < n; jc += neonNC {
		nc := min(neonNC, n-jc)
		for pc := 0; pc < k; pc += neonKC {
			kc := min(neonKC, k-pc)
			bet := beta
			if pc > 0 {
				bet = 1 // later k blocks add to what the first wrote
			}
			for jr := 0; jr < nc; jr += neonNR {
				packPanel(buf.b[jr*kc:], neonNR, b, ldb, bKContig, jc+jr, min(neonNR, nc-jr), pc, kc)
			}
			for ic := 0; ic < m; ic += neonMC {
				mc := min(neonMC, m-ic)
				for ir := 0; ir < mc; ir += neonMR {
					packPanel(buf.a[ir*kc:], neonMR, a, lda, aKContig, ic+ir, min(neonMR, mc-ir), pc, kc)
				}
				for jr := 0; jr < nc; jr += neonNR {
					nr := min(neonNR, nc-jr)
					bp := &buf.b[jr*kc]
					for ir := 0; ir < mc; ir += neonMR {
						mr := min(neonMR, mc-ir)
						ap := &buf.a[ir*kc]
						ci := (ic+ir)*ldc + jc + jr
						if mr == neonMR && nr == neonNR {
							sgemmKernel8x12(kc, ap, bp, &c[ci], ldc, alpha, bet)
							continue
						}
						sgemmKernel8x12(kc, ap, bp, &tile[0], neonNR, alpha, 0)
						for i := 0; i < mr; i++ {
							row := c[ci+i*ldc : ci+i*ldc+nr]
							t := tile[i*neonNR : i*neonNR+nr]
							if bet == 0 {
								copy(row, t)
								continue
							}
							for j := range row {
								row[j] = t[j] + bet*row[j]
							}
						}
					}
				}
			}
		}
	}
	gemmPool.put(buf)
}

// packPanel packs rows r0…r0+rows−1 (rows ≤ w) of an operand, over p0…p0+kc−1,
// into dst as w-wide k-major panel: dst[p·w + r] = X(r0+r, p0+p), zero for
// r ≥ rows. X(r, p) is src[r·ld + p] when kContig, else src[p·ld + r].
func packPanel(dst []float32, w int, src []float32, ld int, kContig bool, r0, rows, p0, kc int) {
	dst = dst[:kc*w]
	if rows == w {
		if kContig {
			kc4 := kc &^ 3
			if kc4 > 0 {
				for g := 0; g < w; g += 4 {
					packT4(&dst[g], w, &src[(r0+g)*ld+p0], ld, kc4/4)
				}
			}
			for p := kc4; p < kc; p++ {
				for r := 0; r < w; r++ {
					dst[p*w+r] = src[(r0+r)*ld+p0+p]
				}
			}
			return
		}
		for g := 0; g < w; g += 4 {
			packN4(&dst[g], w, &src[p0*ld+r0+g], ld, kc)
		}
		return
	}
	for p := 0; p < kc; p++ {
		d := dst[p*w : p*w+w]
		for r := range d {
			switch {
			case r >= rows:
				d[r] = 0
			case kContig:
				d[r] = src[(r0+r)*ld+p0+p]
			default:
				d[r] = src[(p0+p)*ld+r0+r]
			}
		}
	}
}

package kernels

// The generic GEMMs are the reference the assembly is tested against, and
// the fallback everywhere else. They are written for clarity first, with the
// loop orders that keep the innermost loop on contiguous memory.

// scaleC applies beta to the m×n block of C (beta 0 writes zeros).
func scaleC(m, n int, beta float32, c []float32, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

func sgemmNNGeneric(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	scaleC(m, n, beta, c, ldc)
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		for p := 0; p < k; p++ {
			s := alpha * a[i*lda+p]
			bp := b[p*ldb : p*ldb+n]
			for j, bv := range bp {
				ci[j] += s * bv
			}
		}
	}
}

func sgemmNTGeneric(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if k == 0 { // A and B may be empty
		scaleC(m, n, beta, c, ldc)
		return
	}
	for i := 0; i < m; i++ {
		ai := a[i*lda : i*lda+k]
		for j := 0; j < n; j++ {
			bj := b[j*ldb : j*ldb+k]
			var s0, s1, s2, s3 float32
			p := 0
			for ; p+4 <= k; p += 4 {
				s0 += ai[p] * bj[p]
				s1 += ai[p+1] * bj[p+1]
				s2 += ai[p+2] * bj[p+2]
				s3 += ai[p+3] * bj[p+3]
			}
			for ; p < k; p++ {
				s0 += ai[p] * bj[p]
			}
			s := alpha * ((s0 + s1) + (s2 + s3))
			if beta == 0 {
				c[i*ldc+j] = s
			} else {
				c[i*ldc+j] = beta*c[i*ldc+j] + s
			}
		}
	}
}

func sgemmTNGeneric(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	scaleC(m, n, beta, c, ldc)
	for p := 0; p < k; p++ {
		ap := a[p*lda : p*lda+m]
		bp := b[p*ldb : p*ldb+n]
		for i, av := range ap {
			s := alpha * av
			ci := c[i*ldc : i*ldc+n]
			for j, bv := range bp {
				ci[j] += s * bv
			}
		}
	}
}

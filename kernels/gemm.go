package kernels

// The three GEMM forms of the GRU, row-major, named as in cblas_sgemm by which
// operand is transposed. All compute C = alpha·op(A)·op(B) + beta·C over an
// m×n block of C with leading dimension ldc; when beta is 0, C is only
// written (NaNs already there do not propagate), as in BLAS.
//
//	NN: A is m×k (lda ≥ k), B is k×n (ldb ≥ n)   — dh = dgates·W_hh
//	NT: A is m×k (lda ≥ k), B is n×k (ldb ≥ k)   — gates = h·W_hhᵀ
//	TN: A is k×m (lda ≥ m), B is k×n (ldb ≥ n)   — dW_hh = dgatesᵀ·h

// SgemmNN computes C = alpha·A·B + beta·C.
func SgemmNN(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkGemm("SgemmNN", m, n, k, a, lda, m, k, b, ldb, k, n, c, ldc)
	if m > 0 && n > 0 {
		impl.sgemmNN(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// SgemmNT computes C = alpha·A·Bᵀ + beta·C.
func SgemmNT(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkGemm("SgemmNT", m, n, k, a, lda, m, k, b, ldb, n, k, c, ldc)
	if m > 0 && n > 0 {
		impl.sgemmNT(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// SgemmTN computes C = alpha·Aᵀ·B + beta·C.
func SgemmTN(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkGemm("SgemmTN", m, n, k, a, lda, k, m, b, ldb, k, n, c, ldc)
	if m > 0 && n > 0 {
		impl.sgemmTN(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
}

// Every implementation handles k = 0 (C = beta·C, with A and B possibly
// empty) itself; the tests check it for each set.

// checkGemm validates sizes: A is ar×ac, B is br×bc as stored.
func checkGemm(name string, m, n, k int, a []float32, lda, ar, ac int, b []float32, ldb, br, bc int, c []float32, ldc int) {
	mustDim(name, "m", m, 0)
	mustDim(name, "n", n, 0)
	mustDim(name, "k", k, 0)
	mustDim(name, "lda", lda, max(ac, 1))
	mustDim(name, "ldb", ldb, max(bc, 1))
	mustDim(name, "ldc", ldc, max(n, 1))
	if m == 0 || n == 0 {
		return
	}
	mustLen(name, "a", len(a), span(ar, ac, lda))
	mustLen(name, "b", len(b), span(br, bc, ldb))
	mustLen(name, "c", len(c), span(m, n, ldc))
}

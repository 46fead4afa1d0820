//go:build !purego

package kernels

// useAVX2 installs the AVX2+FMA kernels into s. Families not yet written in
// assembly keep their generic twins.
func useAVX2(s *implementation) {
	useAVX2GEMM(s)
	useAVX2Elementwise(s)
}

package gru

import "testing"

// BenchmarkTranspose times W_hhᵀ at the model's shape (288×96), once an
// update (Derived.Compute).
func BenchmarkTranspose(b *testing.B) {
	rows, cols := 288, 96
	src, dst := make([]float32, rows*cols), make([]float32, rows*cols)
	for i := range src {
		src[i] = float32(i)
	}
	for b.Loop() {
		transpose(dst, src, rows, cols)
	}
}

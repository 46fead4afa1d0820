package gru

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTranspose: transpose (W_hhᵀ, once an update)
// puts src[i][j] at dst[j][i] on empty, single, odd and the model's shapes
// (288×96 both ways, rows that are not a multiple of four), and writes
// nothing past rows·cols. (On Zen 4, 288×96: a 16×16-tiled version took 30 µs
// against the one-row loop's 20; four rows at a time 12.6 against 24.5,
// BenchmarkTranspose, 8 interleaved rounds.)
func TestTranspose(t *testing.T) {
	for _, sh := range [][2]int{{0, 0}, {1, 1}, {1, 17}, {17, 1}, {15, 16}, {16, 16}, {17, 33}, {33, 7}, {288, 96}, {96, 288}} {
		rows, cols := sh[0], sh[1]
		t.Run(fmt.Sprintf("%dx%d", rows, cols), func(t *testing.T) {
			src := make([]float32, rows*cols)
			for i := range src {
				src[i] = float32(i + 1)
			}
			dst := make([]float32, rows*cols+3)
			guard := []float32{-1, -2, -3}
			copy(dst[rows*cols:], guard)
			transpose(dst[:rows*cols], src, rows, cols)
			for i := 0; i < rows; i++ {
				for j := 0; j < cols; j++ {
					require.Equalf(t, src[i*cols+j], dst[j*rows+i], "src[%d][%d]", i, j)
				}
			}
			require.Equal(t, guard, dst[rows*cols:], "written past the end")
		})
	}
}

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

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGatesNNIsNT pins what gru relies on to read W_hh transposed
// (gru.Derived.WHHT): on every assembly set, the gates GEMM h·W_hhᵀ as NN
// on Wᵀ gives the NT form's floats bit for bit, for every width up to 256
// (one k block in both forms) and any rows. The generic twins sum NT in
// four partial sums and NN in one, so they are not compared.
func TestGatesNNIsNT(t *testing.T) {
	sets := gemmSetsUnderTest(t)
	if len(sets) == 0 {
		t.Skipf("no assembly sets in this build (%s)", Backend())
	}
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range sets {
		for _, d := range []int{1, 8, 15, 16, 33, 96, 128, 160, 256} {
			for _, m := range []int{1, 7, 8, 9, 17, 95, 96, 97, 193} {
				t.Run(fmt.Sprintf("%s/d%d/m%d", s.name, d, m), func(t *testing.T) {
					n := 3 * d
					h := randSlice(r, m*d, m%3, 1)
					w := randSlice(r, n*d, 1, 1)
					wt := make([]float32, d*n)
					for i := 0; i < n; i++ {
						for j := 0; j < d; j++ {
							wt[j*n+i] = w[i*d+j]
						}
					}
					bias := randSlice(r, m*n, 0, 1)
					nt := append([]float32(nil), bias...)
					nn := append([]float32(nil), bias...)
					s.sgemmNT(m, n, d, 1, h, d, w, d, 1, nt, n)
					s.sgemmNN(m, n, d, 1, h, d, wt, n, 1, nn, n)
					for i := range nt {
						if math.Float32bits(nt[i]) != math.Float32bits(nn[i]) {
							require.Failf(t, "NN on Wᵀ differs from NT", "element %d (row %d, column %d): NT %v, NN %v", i, i/n, i%n, nt[i], nn[i])
						}
					}
				})
			}
		}
	}
}

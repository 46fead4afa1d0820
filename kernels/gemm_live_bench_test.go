package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSgemmTNLive times SgemmTNLive against SgemmTN on the weight
// gradients of a chunk of 96 rows and 6 steps (k = 576) whose rollouts
// stopped, a fraction of the k rows dead (zero in A and B): the recurrent
// weights' 288×96, the heads' 19×96, and the column sums' 1×288 and 1×19
// (gru's addColumnSums). SgemmTNLive copies the live rows, so where it pays
// depends on the shape; SgemmTNLiveRows with A kept as its live rows (gru's
// gate gradients; for the column sums A is the ones and B the gradients,
// both kept) copies only B's, or nothing.
func BenchmarkSgemmTNLive(b *testing.B) {
	const k = 576
	r := rand.New(rand.NewPCG(7, 7))
	for _, sh := range [][2]int{{288, 96}, {19, 96}, {1, 288}, {1, 19}} {
		m, n := sh[0], sh[1]
		for _, deadPct := range []int{0, 25, 45} {
			live := make([]bool, k)
			a, bm := randSlice(r, k*m, 0, 1), randSlice(r, k*n, 0, 1)
			for p := range live {
				live[p] = r.IntN(100) >= deadPct
				if !live[p] {
					clear(a[p*m : (p+1)*m])
					clear(bm[p*n : (p+1)*n])
				}
			}
			c := make([]float32, m*n)
			ka, kb := liveRows(a, m, m, live, 0), liveRows(bm, n, n, live, 0)
			for _, f := range []string{"TN", "TNLive", "TNLiveRows"} {
				b.Run(fmt.Sprintf("%dx%dx%d/dead=%d%%/%s", m, n, k, deadPct, f), func(b *testing.B) {
					for b.Loop() {
						switch {
						case f == "TN":
							SgemmTN(m, n, k, 1, a, m, bm, n, 1, c, n)
						case f == "TNLive":
							SgemmTNLive(m, n, k, 1, a, m, bm, n, 1, c, n, live)
						case m == 1: // the column sums: ones and gradients both kept
							SgemmTNLiveRows(m, n, k, 1, ka, m, true, kb, n, true, 1, c, n, live)
						default:
							SgemmTNLiveRows(m, n, k, 1, ka, m, true, bm, n, false, 1, c, n, live)
						}
					}
					b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s-of-TN")
				})
			}
		}
	}
}

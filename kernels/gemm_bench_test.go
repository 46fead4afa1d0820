package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// gemmBenchShapes are the model's GEMMs (d = 96 hidden, 3d = 288 gates,
// V+1 = 19 heads) for the default chunk of 96 episodes, a chunk of 192 and
// a batch of 4096:
//
//	NN  M×288×96  gates = h·(W_hhᵀ)      (gru.Derived.WHHT, read in place)
//	NT  M×19×96   heads                  18×288×96  token table
//	NN  M×96×288  dh = dgates·W_hh       M×96×19  dh from heads  18×96×288
//	TN  288×96×K  dW_hh = dgatesᵀ·h      19×96×K                 288×96×18
//
// NT M×288×96 is the gates GEMM's form before the transposed W_hh (the
// same floats): kept to show what packing Bᵀ on every call cost.
//
// TN's K is T·M with T = 6, plus 192 and 4096 to line up with OpenBLAS
// figures. Each entry is m, n, k of the call.
func gemmBenchShapes() map[string][][3]int {
	s := map[string][][3]int{}
	for _, rows := range []int{96, 192, 4096} {
		s["NT"] = append(s["NT"], [3]int{rows, 288, 96}, [3]int{rows, 19, 96})
		s["NN"] = append(s["NN"], [3]int{rows, 288, 96}, [3]int{rows, 96, 288}, [3]int{rows, 96, 19})
	}
	s["NT"] = append(s["NT"], [3]int{18, 288, 96})
	s["NN"] = append(s["NN"], [3]int{18, 96, 288})
	for _, k := range []int{6 * 96, 6 * 192, 6 * 4096, 192, 4096} {
		s["TN"] = append(s["TN"], [3]int{288, 96, k}, [3]int{19, 96, k})
	}
	s["TN"] = append(s["TN"], [3]int{288, 96, 18})
	return s
}

// BenchmarkSgemm runs the public GEMMs (the backend in use: avx2 here
// unless SIMDRL_KERNELS=generic) on the model's shapes, with beta = 0.
func BenchmarkSgemm(b *testing.B) {
	benchGemm(b, func(form string) gemmFunc {
		return map[string]gemmFunc{"NN": SgemmNN, "NT": SgemmNT, "TN": SgemmTN}[form]
	})
}

// BenchmarkSgemmGeneric runs the generic twins on the same shapes.
func BenchmarkSgemmGeneric(b *testing.B) {
	benchGemm(b, func(form string) gemmFunc {
		return map[string]gemmFunc{"NN": generic.sgemmNN, "NT": generic.sgemmNT, "TN": generic.sgemmTN}[form]
	})
}

func benchGemm(b *testing.B, pick func(form string) gemmFunc) {
	shapes := gemmBenchShapes()
	r := rand.New(rand.NewPCG(1, 1))
	for _, form := range []string{"NN", "NT", "TN"} {
		f := pick(form)
		for _, sh := range shapes[form] {
			m, n, k := sh[0], sh[1], sh[2]
			b.Run(fmt.Sprintf("%s/%dx%dx%d", form, m, n, k), func(b *testing.B) {
				lda, ldb := k, n
				if form == "TN" {
					lda = m
				}
				if form == "NT" {
					ldb = k
				}
				a := randSlice(r, m*k, 0, 1)
				bm := randSlice(r, k*n, 0, 1)
				c := make([]float32, m*n)
				b.ResetTimer()
				for b.Loop() {
					f(m, n, k, 1, a, lda, bm, ldb, 0, c, n)
				}
				b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Benchmarks of the non-GEMM kernels, each with the Go twin and the
// accelerated set side by side. GB/s counts the bytes each call reads and
// writes once (its compulsory traffic), so the numbers compare across
// kernels and against the memory system:
//
//	taskset -c 0 go test -run XXX -bench . -count 5 ./kernels

// benchSets runs body as /generic and one sub-benchmark per assembly set
// this CPU supports (/avx2 and /avx512 on an AVX-512 machine, so that the
// elementwise kernels' ZMM forms compare with their AVX2 ones); bytes is the
// traffic of one call.
func benchSets(b *testing.B, bytes int, body func(b *testing.B, s *implementation)) {
	sets := append([]*implementation{&generic}, asmSets()...)
	for _, s := range sets {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			body(b, s)
			b.ReportMetric(float64(bytes)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
		})
	}
	if accelerated == nil {
		b.Logf("no accelerated kernels in this build (%s): generic only", Backend())
	}
}

const benchVocab, benchHidden = 18, 96

func BenchmarkGRUForward(b *testing.B) {
	for _, rows := range []int{96, 192, 512, 4096} {
		r := rand.New(rand.NewPCG(1, uint64(rows)))
		c := newGRUCase(r, rows, benchHidden, 4)
		c.vocab = benchVocab + 1
		c.table = randSlice(r, c.vocab*3*c.d, 0, 2)
		for i := range c.tokens {
			c.tokens[i] = int32(r.IntN(c.vocab))
		}
		hNext, act := make([]float32, rows*c.d), make([]float32, rows*3*c.d)
		// reads table row, gh, hPrev; writes hNext, act
		bytes := 4 * rows * (3*c.d + 3*c.d + c.d + c.d + 3*c.d)
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			benchSets(b, bytes, func(b *testing.B, s *implementation) {
				for b.Loop() {
					s.gruForward(rows, c.d, c.table, c.tokens, c.gh, c.hPrev, hNext, act)
				}
			})
		})
	}
}

func BenchmarkGRUBackward(b *testing.B) {
	for _, rows := range []int{96, 192, 512, 4096} {
		r := rand.New(rand.NewPCG(2, uint64(rows)))
		c := newGRUCase(r, rows, benchHidden, 4)
		c.vocab = benchVocab + 1
		for i := range c.tokens {
			c.tokens[i] = int32(r.IntN(c.vocab))
		}
		hNext, act := make([]float32, rows*c.d), make([]float32, rows*3*c.d)
		generic.gruForward(rows, c.d, randSlice(r, c.vocab*3*c.d, 0, 2), c.tokens, c.gh, c.hPrev, hNext, act)
		dgh, dhPrev, dTable := make([]float32, rows*3*c.d), make([]float32, rows*c.d), make([]float32, c.vocab*3*c.d)
		// reads act, gh_n, hPrev, dhNext, dTable row; writes dgh, dhPrev, dTable row
		bytes := 4 * rows * (3*c.d + c.d + c.d + c.d + 3*c.d + 3*c.d + c.d + 3*c.d)
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			benchSets(b, bytes, func(b *testing.B, s *implementation) {
				for b.Loop() {
					s.gruBack(rows, c.d, c.tokens, act, c.gh, c.hPrev, c.dhNext, dgh, dhPrev, dTable)
				}
			})
		})
	}
}

// The policy head as the model calls it: 192 episodes × 6 steps of 18
// actions, the logits inside the (V+1)-wide heads block.
const benchPolicyRows, benchPolicyCols, benchPolicyLd = 192 * 6, 18, 19

func BenchmarkPolicyForward(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	c := newPolicyCase(r, benchPolicyRows, benchPolicyCols, benchPolicyLd, 4)
	logp, ent := make([]float32, c.rows*c.cols), make([]float32, c.rows)
	bytes := 4 * c.rows * (2*c.cols + 1) // reads logits; writes logp, ent
	benchSets(b, bytes, func(b *testing.B, s *implementation) {
		for b.Loop() {
			s.policyFwd(c.rows, c.cols, c.logits, c.ld, logp, ent)
		}
	})
}

func BenchmarkPolicyBackward(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 4))
	c := newPolicyCase(r, benchPolicyRows, benchPolicyCols, benchPolicyLd, 4)
	logp, ent := make([]float32, c.rows*c.cols), make([]float32, c.rows)
	generic.policyFwd(c.rows, c.cols, c.logits, c.ld, logp, ent)
	dlogits := make([]float32, span(c.rows, c.cols, c.ld))
	bytes := 4 * c.rows * (2*c.cols + 3) // reads logp, action, dlogp, dent; writes dlogits
	benchSets(b, bytes, func(b *testing.B, s *implementation) {
		for b.Loop() {
			s.policyBack(c.rows, c.cols, logp, c.actions, c.dlogp, c.dent, dlogits, c.ld)
		}
	})
}

// benchParams is the model's parameter count.
const benchParams = 59788

func BenchmarkAdam(b *testing.B) {
	for _, n := range []int{benchParams, 1 << 20} {
		r := rand.New(rand.NewPCG(5, uint64(n)))
		st := newAdamState(r, n, 1)
		h := adamDefault
		bytes := 4 * n * 7 // reads p, g, m, v; writes p, m, v
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchSets(b, bytes, func(b *testing.B, s *implementation) {
				for b.Loop() {
					st.run(s, h)
				}
			})
		})
	}
}

func BenchmarkSumSquares(b *testing.B) {
	for _, n := range []int{benchParams, 1 << 20} {
		x := randSlice(rand.New(rand.NewPCG(6, uint64(n))), n, 0, 1)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			benchSets(b, 4*n, func(b *testing.B, s *implementation) {
				var sink float64
				for b.Loop() {
					sink += s.sumSquares(x)
				}
				_ = sink
			})
		})
	}
}

//go:build !purego

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/klauspost/cpuid/v2"
	"github.com/stretchr/testify/require"
)

func skipWithoutAVX512(t testing.TB) {
	if !cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512VL) {
		t.Skip("no AVX512F+VL on this CPU")
	}
}

// TestGemmPackBTZ checks NT's packing for the ZMM tile cell by cell against
// its definition: every panel, partial ones zero-padded, every k tail
// around the 16×16 transposes, B's rows padded and misaligned; the buffer
// starts as NaN so that a cell left unwritten shows.
func TestGemmPackBTZ(t *testing.T) {
	skipWithoutAVX512(t)
	r := rand.New(rand.NewPCG(21, 22))
	nan := float32(math.NaN())
	for _, kc := range []int{1, 7, 15, 16, 17, 31, 32, 33, 96, 255, 256} {
		for _, nc := range []int{1, 2, 15, 16, 17, 31, 32, 33, 47, 48, 49, 95, 96, 97, 240, 288} {
			for _, pad := range []int{0, 3} {
				ldb := kc + pad
				b := randSlice(r, span(nc, kc, ldb), (kc+nc)%4, 1)
				panels := (nc + gemmNRZ - 1) / gemmNRZ
				if panels*kc*gemmNRZ > gemmBufB {
					continue
				}
				bbuf := make([]float32, panels*kc*gemmNRZ+16)
				for i := range bbuf {
					bbuf[i] = nan
				}
				gemmPackBTZ(bbuf, kc, nc, b, ldb)
				for q := 0; q < panels; q++ {
					for p := 0; p < kc; p++ {
						for j := 0; j < gemmNRZ; j++ {
							var want float32
							if col := q*gemmNRZ + j; col < nc {
								want = b[col*ldb+p]
							}
							got := bbuf[q*kc*gemmNRZ+p*gemmNRZ+j]
							if got != want {
								t.Fatalf("kc %d nc %d ldb %d: panel %d (%d, %d) = %g, want %g", kc, nc, ldb, q, p, j, got, want)
							}
						}
					}
				}
				for _, v := range bbuf[panels*kc*gemmNRZ:] {
					require.True(t, math.IsNaN(float64(v)), "kc %d nc %d: written past the panels", kc, nc)
				}
			}
		}
	}
}

// TestSgemmNTZMMBitIdentical: NT on the ZMM tile gives the AVX2 tile's
// results bit for bit (the same FMA chain per element of C, the same k
// blocks), on odd shapes (0, 1, tails, 95–97, 191–193, several k blocks),
// every scalar mode, padded and misaligned operands whose padding holds NaN
// (which must not be read), and C's guards. That is what keeps the avx512
// backend's results where dispatch moves NT to the ZMM tile. The 19 heads
// are compared too, though dispatch runs them on their own kernel.
func TestSgemmNTZMMBitIdentical(t *testing.T) {
	skipWithoutAVX512(t)
	r := rand.New(rand.NewPCG(23, 24))
	zmm := func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
		gemmRun(&gemmTileAVX512NT, gemmNT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
	}
	nan := float32(math.NaN())
	cases := 0
	check := func(g gemmCase) {
		cases++
		o := newGemmOperands(r, false, true, g)
		// NaN in the padding of A's and B's rows.
		for i := 0; i < g.m; i++ {
			for p := g.k; p < o.lda && i*o.lda+p < len(o.a); p++ {
				o.a[i*o.lda+p] = nan
			}
		}
		for j := 0; j < g.n; j++ {
			for p := g.k; p < o.ldb && j*o.ldb+p < len(o.b); p++ {
				o.b[j*o.ldb+p] = nan
			}
		}
		want := o.c.clone()
		o.call(sgemmNTAVX2, false, true, g, want.Data)
		got := o.c.clone()
		o.call(zmm, false, true, g, got.Data)
		what := "NT " + g.String()
		got.requireGuards(t, what)
		for i := 0; i < g.m; i++ {
			for j := 0; j < g.n; j++ {
				x, y := got.Data[i*o.ldc+j], want.Data[i*o.ldc+j]
				if math.Float32bits(x) != math.Float32bits(y) {
					t.Fatalf("%s: C[%d,%d] = %g (%#x), the AVX2 tile gives %g (%#x)", what, i, j, x, math.Float32bits(x), y, math.Float32bits(y))
				}
				if math.IsNaN(float64(x)) {
					t.Fatalf("%s: C[%d,%d] is NaN", what, i, j)
				}
			}
		}
	}
	sizes := []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 19, 31, 47, 48, 49, 95, 96, 97, 191, 192, 193}
	ks := []int{1, 8, 15, 16, 17, 32, 33, 95, 96, 97, 255, 256, 257, 300, 600}
	i := 0
	next := func(m, n, k int) gemmCase {
		i++
		return gemmCase{m: m, n: n, k: k, padA: []int{0, 1, 5}[i%3], padB: []int{0, 3, 1}[(i/3)%3],
			padC: []int{0, 2, 7}[(i/2)%3], shift: i % 4, alpha: gemmAlphas[i%2], beta: gemmBetas[(i/2)%3]}
	}
	for x, m := range sizes {
		for y, n := range sizes {
			check(next(m, n, ks[(x*7+y*3)%len(ks)]))
		}
	}
	for z, k := range ks {
		for x := range sizes {
			check(next(sizes[x], sizes[(x+z)%len(sizes)], k))
		}
	}
	// The model's shapes, each scalar mode; one large.
	for _, sh := range [][3]int{{18, 288, 96}, {96, 288, 96}, {192, 288, 96}, {96, 19, 96}, {1031, 288, 96}} {
		for _, alpha := range gemmAlphas {
			for _, beta := range gemmBetas {
				g := next(sh[0], sh[1], sh[2])
				g.alpha, g.beta = alpha, beta
				check(g)
			}
		}
	}
	check(next(largeSize, 300, largeSize))
	t.Logf("%d cases", cases)
}

// FuzzSgemmNTZMM: the ZMM NT tile against the AVX2 one (bit for bit) and
// the generic twin (within rounding), on fuzzed shapes and scalars.
func FuzzSgemmNTZMM(f *testing.F) {
	f.Add(uint8(96), uint16(288), uint16(96), uint8(0), uint8(0), uint8(0), uint8(0), float32(1), float32(1))
	f.Add(uint8(1), uint16(1), uint16(1), uint8(0), uint8(0), uint8(0), uint8(3), float32(1), float32(0))
	f.Add(uint8(97), uint16(193), uint16(33), uint8(5), uint8(1), uint8(3), uint8(1), float32(-0.5), float32(0.75))
	f.Add(uint8(17), uint16(49), uint16(300), uint8(2), uint8(7), uint8(0), uint8(2), float32(2), float32(1))
	f.Fuzz(func(t *testing.T, m uint8, n, k uint16, padA, padB, padC, shift uint8, alpha, beta float32) {
		skipWithoutAVX512(t)
		finite := func(v float32) float32 {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || math.Abs(float64(v)) > 1e3 {
				return 1
			}
			return v
		}
		g := gemmCase{m: int(m), n: int(n % 400), k: int(k % 700), padA: int(padA % 9), padB: int(padB % 9), padC: int(padC % 9),
			shift: int(shift % 4), alpha: finite(alpha), beta: finite(beta)}
		r := rand.New(rand.NewPCG(uint64(g.m)<<32|uint64(g.n)<<16|uint64(g.k), 25))
		zmm := generic
		zmm.name = "avx512-nt-zmm"
		zmm.sgemmNT = func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
			gemmRun(&gemmTileAVX512NT, gemmNT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		}
		checkGemmCase(t, r, 1, &zmm, g)
		if g.k == 0 {
			return
		}
		o := newGemmOperands(r, false, true, g)
		want, got := o.c.clone(), o.c.clone()
		o.call(sgemmNTAVX2, false, true, g, want.Data)
		o.call(zmm.sgemmNT, false, true, g, got.Data)
		for i, x := range got.Data {
			if math.Float32bits(x) != math.Float32bits(want.Data[i]) && !(math.IsNaN(float64(x)) && math.IsNaN(float64(want.Data[i]))) {
				t.Fatalf("%s: C cell %d = %g, the AVX2 tile gives %g", fmt.Sprint(g), i, x, want.Data[i])
			}
		}
	})
}

// TestSgemmHeadsZBitIdentical: the heads kernel's ZMM form (full-rate CPUs)
// gives its YMM form's bits (Zen 4), on every row tail, k tails around 16,
// several k blocks, every scalar mode, with NaN in A's and B's padding.
func TestSgemmHeadsZBitIdentical(t *testing.T) {
	skipWithoutAVX512(t)
	r := rand.New(rand.NewPCG(27, 28))
	nan := float32(math.NaN())
	i := 0
	for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 64, 95, 96, 97, 192, 193} {
		for _, k := range []int{1, 7, 8, 15, 16, 17, 31, 33, 95, 96, 97, 257, 300} {
			i++
			g := gemmCase{m: m, n: 19, k: k, padA: i % 3, padB: (i / 3) % 3, padC: i % 4, shift: i % 4,
				alpha: gemmAlphas[i%2], beta: gemmBetas[(i/2)%3]}
			o := newGemmOperands(r, false, true, g)
			for row := 0; row < m; row++ {
				for p := k; p < o.lda && row*o.lda+p < len(o.a); p++ {
					o.a[row*o.lda+p] = nan
				}
			}
			for j := 0; j < 19; j++ {
				for p := k; p < o.ldb && j*o.ldb+p < len(o.b); p++ {
					o.b[j*o.ldb+p] = nan
				}
			}
			ymm := func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
				sgemmNTHeads(&gemmKernelsH, m, k, alpha, a, lda, b, ldb, beta, c, ldc)
			}
			zmm := func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
				sgemmNTHeads(&gemmKernelsHZ, m, k, alpha, a, lda, b, ldb, beta, c, ldc)
			}
			want, got := o.c.clone(), o.c.clone()
			o.call(ymm, false, true, g, want.Data)
			o.call(zmm, false, true, g, got.Data)
			what := "NT heads " + g.String()
			got.requireGuards(t, what)
			for x := 0; x < m; x++ {
				for j := 0; j < 19; j++ {
					a, b := got.Data[x*o.ldc+j], want.Data[x*o.ldc+j]
					if math.Float32bits(a) != math.Float32bits(b) || math.IsNaN(float64(a)) {
						t.Fatalf("%s: C[%d,%d] = %g, the YMM form gives %g", what, x, j, a, b)
					}
				}
			}
		}
	}
}

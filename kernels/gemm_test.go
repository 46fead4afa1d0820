package kernels

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

type gemmFunc = func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)

// gemmForms names the three forms and how each stores A and B.
var gemmForms = []struct {
	name   string
	transA bool // A is stored k×m
	transB bool // B is stored n×k
	pick   func(s *implementation) gemmFunc
}{
	{"NN", false, false, func(s *implementation) gemmFunc { return s.sgemmNN }},
	{"NT", false, true, func(s *implementation) gemmFunc { return s.sgemmNT }},
	{"TN", true, false, func(s *implementation) gemmFunc { return s.sgemmTN }},
}

// gemmModelShapes are the model's GEMMs (m, n, k per form); see the
// benchmarks for where each comes from.
func gemmModelShapes() map[string][][3]int {
	shapes := map[string][][3]int{
		"NT": {{18, 288, 96}},
		"NN": {{18, 96, 288}},
		"TN": {{288, 96, 18}, {288, 96, 192}, {288, 96, 4096}, {19, 96, 192}, {19, 96, 4096}},
	}
	for _, rows := range []int{64, 192, 4096} {
		shapes["NT"] = append(shapes["NT"], [3]int{rows, 288, 96}, [3]int{rows, 19, 96})
		shapes["NN"] = append(shapes["NN"], [3]int{rows, 288, 96}, [3]int{rows, 96, 288}, [3]int{rows, 96, 19})
		shapes["TN"] = append(shapes["TN"], [3]int{288, 96, 6 * rows}, [3]int{19, 96, 6 * rows})
	}
	return shapes
}

// gemmCase is one call: sizes, leading-dimension padding, misalignment and
// scalars.
type gemmCase struct {
	m, n, k          int
	padA, padB, padC int
	shift            int // elements by which a, b and c are misaligned
	alpha, beta      float32
}

func (g gemmCase) String() string {
	return fmt.Sprintf("m%d_n%d_k%d_pad%d.%d.%d_shift%d_alpha%g_beta%g",
		g.m, g.n, g.k, g.padA, g.padB, g.padC, g.shift, g.alpha, g.beta)
}

// gemmOperands builds A, B and a guarded C for one case of one form. With
// beta = 0, C holds NaN (which must not propagate).
type gemmOperands struct {
	a, b          []float32
	lda, ldb, ldc int
	c             guarded
}

func newGemmOperands(r *rand.Rand, transA, transB bool, g gemmCase) gemmOperands {
	ar, ac := g.m, g.k
	if transA {
		ar, ac = g.k, g.m
	}
	br, bc := g.k, g.n
	if transB {
		br, bc = g.n, g.k
	}
	o := gemmOperands{lda: max(ac, 1) + g.padA, ldb: max(bc, 1) + g.padB, ldc: max(g.n, 1) + g.padC}
	o.a = randSlice(r, span(ar, ac, o.lda), g.shift, 1)
	o.b = randSlice(r, span(br, bc, o.ldb), (g.shift+1)%4, 1)
	var fill *rand.Rand
	if g.beta != 0 {
		fill = r
	}
	o.c = newGuarded(span(g.m, g.n, o.ldc), (g.shift+2)%4, fill)
	if g.beta != 0 {
		// Padding cells of C hold NaN too: nothing may touch them.
		for i := 0; i < g.m; i++ {
			for j := g.n; j < o.ldc && i*o.ldc+j < len(o.c.Data); j++ {
				o.c.Data[i*o.ldc+j] = float32(math.NaN())
			}
		}
	}
	return o
}

// call runs f the way the public wrappers do: sizes checked, nothing to do
// for an empty C.
func (o gemmOperands) call(f gemmFunc, transA, transB bool, g gemmCase, c []float32) {
	ar, ac, br, bc := g.m, g.k, g.k, g.n
	if transA {
		ar, ac = g.k, g.m
	}
	if transB {
		br, bc = g.n, g.k
	}
	checkGemm("test", g.m, g.n, g.k, o.a, o.lda, ar, ac, o.b, o.ldb, br, bc, c, o.ldc)
	if g.m == 0 || g.n == 0 {
		return
	}
	f(g.m, g.n, g.k, g.alpha, o.a, o.lda, o.b, o.ldb, g.beta, c, o.ldc)
}

// gemmTolerance bounds the rounding difference of two float32 evaluations
// of a length-k dot product of values in [-1, 1).
func gemmTolerance(g gemmCase) (rtol, atol float64) {
	return 1e-5, 1e-6*float64(g.k+1)*math.Abs(float64(g.alpha)) + 1e-6*math.Abs(float64(g.beta))
}

// gemmReference computes the case in float64 from the original C.
func gemmReference(transA, transB bool, g gemmCase, o gemmOperands, c0 []float32) []float32 {
	out := append([]float32(nil), c0...)
	for i := 0; i < g.m; i++ {
		for j := 0; j < g.n; j++ {
			var s float64
			for p := 0; p < g.k; p++ {
				ai, bi := i*o.lda+p, p*o.ldb+j
				if transA {
					ai = p*o.lda + i
				}
				if transB {
					bi = j*o.ldb + p
				}
				av, bv := o.a[ai], o.b[bi]
				s += float64(av) * float64(bv)
			}
			v := float64(g.alpha) * s
			if g.beta != 0 {
				v += float64(g.beta) * float64(c0[i*o.ldc+j])
			}
			out[i*o.ldc+j] = float32(v)
		}
	}
	return out
}

// requireCloseQuick is requireClose with a plain loop first: the testify
// assertions cost about a microsecond per element, too slow for the model's
// large C; on a mismatch requireClose reports it.
func requireCloseQuick(t testing.TB, what string, got, want []float32, rtol, atol float64) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		g, w := float64(got[i]), float64(want[i])
		switch {
		case math.IsNaN(w):
			ok = math.IsNaN(g)
		case math.IsNaN(g):
			ok = false
		default:
			ok = math.Abs(g-w) <= atol+rtol*math.Abs(w)
		}
	}
	if !ok {
		requireClose(t, what, got, want, rtol, atol)
		t.Fatalf("%s: requireCloseQuick and requireClose disagree", what)
	}
}

// requireNoNaNInC asserts the m×n block of C is free of NaN.
func requireNoNaNInC(t testing.TB, what string, g gemmCase, o gemmOperands, c []float32) {
	t.Helper()
	for i := 0; i < g.m; i++ {
		for j := 0; j < g.n; j++ {
			if math.IsNaN(float64(c[i*o.ldc+j])) {
				t.Fatalf("%s: C[%d,%d] is NaN", what, i, j)
			}
		}
	}
}

// checkGemmCase runs one case of one form on s and on the generic twin and
// compares the two, guards and padding included.
func checkGemmCase(t *testing.T, r *rand.Rand, form int, s *implementation, g gemmCase) {
	t.Helper()
	checkGemmCaseTwins(t, r, form, s, g, nil)
}

// checkGemmCaseTwins is checkGemmCase taking the generic twin's C from
// twins where it has the case with the same operands (nil: none kept).
func checkGemmCaseTwins(t *testing.T, r *rand.Rand, form int, s *implementation, g gemmCase, twins twinCs) {
	t.Helper()
	fm := gemmForms[form]
	if g.k == 0 {
		// C = beta·C; checked against the float64 reference (see
		// TestSgemmGenericKZero for the generic twins).
		checkGemmAgainstReference(t, r, fm.name, fm.transA, fm.transB, fm.pick(s), g)
		return
	}
	o := newGemmOperands(r, fm.transA, fm.transB, g)
	want := twins.twin(form, g, o)
	got := o.c.clone()
	o.call(fm.pick(s), fm.transA, fm.transB, g, got.Data)
	what := fm.name + " " + g.String()
	got.requireGuards(t, what)
	rtol, atol := gemmTolerance(g)
	requireCloseQuick(t, what, got.Data, want.Data, rtol, atol)
	if g.beta == 0 {
		requireNoNaNInC(t, what, g, o, got.Data)
	}
}

// twinCs keeps the generic twin's C of each case a test has run, for the
// tests that run the same cases on every set (each set's pass starts from
// the same seed, so its operands repeat): the slow generic GEMM then runs
// once per case rather than once per set. The key holds a hash of the
// operands, so a case is only answered from a run on the same numbers.
type twinCs map[twinKey][]float32

type twinKey struct {
	form int
	g    gemmCase
	sum  uint64 // of A, B and the original C (guards included)
}

// twin is the generic twin's C (guards included) for the case on o.
func (tw twinCs) twin(form int, g gemmCase, o gemmOperands) guarded {
	fm := gemmForms[form]
	want := o.c.clone()
	var key twinKey
	if tw != nil {
		key = twinKey{form: form, g: g, sum: floatsHash(o.a, o.b, o.c.all)}
		if all, ok := tw[key]; ok {
			copy(want.all, all)
			return want
		}
	}
	o.call(fm.pick(&generic), fm.transA, fm.transB, g, want.Data)
	if tw != nil {
		tw[key] = append([]float32(nil), want.all...)
	}
	return want
}

// floatsHash hashes the bits of the slices, in order.
func floatsHash(xs ...[]float32) uint64 {
	var h maphash.Hash
	h.SetSeed(twinSeed)
	for _, x := range xs {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(x)))
		h.Write(n[:])
		if len(x) > 0 {
			h.Write(unsafe.Slice((*byte)(unsafe.Pointer(&x[0])), 4*len(x)))
		}
	}
	return h.Sum64()
}

var twinSeed = maphash.MakeSeed()

var (
	gemmAlphas = []float32{1, -0.5}
	gemmBetas  = []float32{0, 1, 0.75}
)

func TestSgemmGenericMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []int{0, 1, 2, 3, 7, 8, 9, 16, 17, 33}
	for _, fm := range gemmForms {
		t.Run(fm.name, func(t *testing.T) {
			n := 0
			for _, m := range sizes {
				for _, nn := range sizes {
					for _, k := range sizes[1:] { // k = 0: TestSgemmGenericKZero
						n++
						g := gemmCase{m: m, n: nn, k: k, padA: n % 3, padB: (n + 1) % 3, padC: (n + 2) % 3, shift: n % 4,
							alpha: gemmAlphas[n%2], beta: gemmBetas[n%3]}
						checkGemmAgainstReference(t, r, fm.name, fm.transA, fm.transB, fm.pick(&generic), g)
					}
				}
			}
		})
	}
}

// TestSgemmGenericKZero: with k = 0 every form must leave C = beta·C.
func TestSgemmGenericKZero(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, fm := range gemmForms {
		t.Run(fm.name, func(t *testing.T) {
			for x, m := range []int{1, 2, 5} {
				for y, n := range []int{1, 3, 9} {
					g := gemmCase{m: m, n: n, k: 0, padA: x, padB: y, padC: x + y, alpha: 1, beta: gemmBetas[(x+y)%3]}
					checkGemmAgainstReference(t, r, fm.name, fm.transA, fm.transB, fm.pick(&generic), g)
				}
			}
		})
	}
}

// checkGemmAgainstReference runs one case of f against the float64
// reference; a panic fails the test with the case named.
func checkGemmAgainstReference(t *testing.T, r *rand.Rand, name string, transA, transB bool, f gemmFunc, g gemmCase) {
	t.Helper()
	o := newGemmOperands(r, transA, transB, g)
	want := gemmReference(transA, transB, g, o, o.c.Data)
	got := o.c.clone()
	what := name + " " + g.String()
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("%s: panic: %v", what, p)
			}
		}()
		o.call(f, transA, transB, g, got.Data)
	}()
	got.requireGuards(t, what)
	rtol, atol := gemmTolerance(g)
	requireCloseQuick(t, what, got.Data, want, rtol, atol)
	if g.beta == 0 {
		requireNoNaNInC(t, what, g, o, got.Data)
	}
}

// gemmSetsUnderTest lists every assembly GEMM set this CPU can run, not only
// the one dispatch picks (on AVX-512 CPUs the AVX2 set still has to be
// right), plus test-only sets that force code paths dispatch avoids for
// some shapes (gemmForcedSets, per architecture). Empty when there is no
// assembly: then only the generic twins are checked, against float64.
func gemmSetsUnderTest(t testing.TB) []*implementation {
	sets := append(asmSets(), gemmForcedSets()...)
	if len(sets) == 0 {
		t.Logf("no accelerated kernels in this build (%s); checking the generic twins only", Backend())
	}
	return sets
}

func TestSgemmAcceleratedMatchesGeneric(t *testing.T) {
	twins := twinCs{}
	for _, s := range gemmSetsUnderTest(t) {
		t.Run(s.name, func(t *testing.T) { checkSgemmOddShapes(t, s, twins) })
	}
}

// checkSgemmOddShapes compares s's GEMMs with the generic twins on odd
// shapes, scalars, paddings and misalignments.
func checkSgemmOddShapes(t *testing.T, s *implementation, twins twinCs) {
	r := rand.New(rand.NewPCG(3, 4))
	for form, fm := range gemmForms {
		t.Run(fm.name, func(t *testing.T) {
			cases := 0
			run := func(g gemmCase) {
				cases++
				checkGemmCaseTwins(t, r, form, s, g, twins)
			}
			// Every (m, n) pair of oddSizes with k cycling through them, and
			// every k with (m, n) cycling, with all scalars, paddings and
			// misalignments taking turns.
			i := 0
			next := func(m, n, k int) gemmCase {
				i++
				return gemmCase{m: m, n: n, k: k, padA: []int{0, 1, 5}[i%3], padB: []int{0, 3, 1}[(i/3)%3],
					padC: []int{0, 2, 7}[(i/2)%3], shift: i % 4, alpha: gemmAlphas[i%2], beta: gemmBetas[(i/2)%3]}
			}
			for x, m := range oddSizes {
				for y, n := range oddSizes {
					run(next(m, n, oddSizes[(x*7+y*3)%len(oddSizes)]))
				}
			}
			for z, k := range oddSizes {
				for x := 0; x < len(oddSizes); x += 2 {
					run(next(oddSizes[x], oddSizes[(x+z)%len(oddSizes)], k))
				}
			}
			// Each scalar pair on a shape with every kind of tail.
			for _, alpha := range gemmAlphas {
				for _, beta := range gemmBetas {
					for shift := 0; shift < 4; shift++ {
						g := next(97, 33, 31)
						g.alpha, g.beta, g.shift = alpha, beta, shift
						run(g)
					}
				}
			}
			// B's rows a multiple of 256 bytes apart, which NN and TN pack
			// instead of reading in place.
			for _, sh := range [][3]int{{5, 17, 9}, {33, 64, 40}, {97, 100, 300}, {19, 96, 600}} {
				g := next(sh[0], sh[1], sh[2])
				bc := sh[1]
				if fm.transB {
					bc = sh[2]
				}
				g.padB = (64 - bc%64) % 64
				run(g)
			}
			// The same for A: TN's Aᵀ, which the AVX-512 tile reads in place
			// unless its rows are a multiple of 256 bytes apart, then packs.
			for _, sh := range [][3]int{{5, 17, 9}, {19, 48, 40}, {97, 100, 300}, {19, 96, 600}} {
				g := next(sh[0], sh[1], sh[2])
				ac := sh[2]
				if fm.transA {
					ac = sh[0]
				}
				g.padA = (64 - ac%64) % 64
				run(g)
			}
			// The heads' 19 columns (NT runs them through a kernel of its own on
			// AVX-512): every row tail, k tails around 16, several k blocks.
			for _, m := range []int{1, 2, 3, 4, 6, 9, 97} {
				for _, k := range []int{1, 15, 16, 17, 96, 300} {
					run(next(m, 19, k))
				}
			}
			// Large: several k blocks, many panels and row blocks.
			run(next(largeSize, 31, largeSize))
			run(next(17, largeSize, 600))
			t.Logf("%s: %d cases", fm.name, cases)
		})
	}
}

func TestSgemmModelShapes(t *testing.T) {
	twins := twinCs{}
	for _, s := range gemmSetsUnderTest(t) {
		r := rand.New(rand.NewPCG(5, 6))
		shapes := gemmModelShapes()
		for form, fm := range gemmForms {
			for x, sh := range shapes[fm.name] {
				for y, beta := range gemmBetas {
					if (testing.Short() || sh[0]*sh[1]*sh[2] > 50_000_000) && y != x%len(gemmBetas) {
						// The largest shapes get one beta each, to keep the
						// test quick; under -short every shape does (the
						// betas take turns over the shapes, and the odd
						// shapes test every beta).
						continue
					}
					g := gemmCase{m: sh[0], n: sh[1], k: sh[2], alpha: gemmAlphas[(x+y)%2], beta: beta, shift: (x + y) % 4}
					checkGemmCaseTwins(t, r, form, s, g, twins)
				}
			}
		}
	}
}

// TestSgemmPageEdge puts A, B and C flush against an unmapped page, so a
// kernel that touches a single element past any of them faults.
func TestSgemmPageEdge(t *testing.T) {
	sets := gemmSetsUnderTest(t)
	if len(sets) == 0 {
		return
	}
	if runtime.GOOS != "linux" {
		t.Logf("page-edge check needs linux mmap; running on %s", runtime.GOOS)
		return
	}
	page := os.Getpagesize()
	const pages = 64
	r := rand.New(rand.NewPCG(7, 8))
	// flushEnd returns n float32s ending exactly at a PROT_NONE page.
	flushEnd := func(n int) []float32 {
		mem, err := syscall.Mmap(-1, 0, (pages+1)*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
		require.NoError(t, err)
		t.Cleanup(func() { _ = syscall.Munmap(mem) })
		require.NoError(t, syscall.Mprotect(mem[pages*page:], syscall.PROT_NONE))
		require.LessOrEqual(t, n*4, pages*page)
		all := unsafe.Slice((*float32)(unsafe.Pointer(&mem[0])), pages*page/4)
		out := all[len(all)-n:]
		for i := range out {
			out[i] = r.Float32()*2 - 1
		}
		return out
	}
	for _, s := range sets {
		for _, fm := range gemmForms {
			for _, sh := range [][3]int{{5, 3, 9}, {6, 19, 13}, {9, 13, 1}, {7, 47, 33}, {1, 1, 1}, {13, 25, 17}, {9, 48, 5}, {3, 61, 7}} {
				m, n, k := sh[0], sh[1], sh[2]
				ar, ac, br, bc := m, k, k, n
				if fm.transA {
					ar, ac = k, m
				}
				if fm.transB {
					br, bc = n, k
				}
				a, b := flushEnd(ar*ac), flushEnd(br*bc)
				for _, beta := range gemmBetas {
					c := flushEnd(m * n)
					want := append([]float32(nil), c...)
					fm.pick(&generic)(m, n, k, 1, a, ac, b, bc, beta, want, n)
					fm.pick(s)(m, n, k, 1, a, ac, b, bc, beta, c, n)
					requireClose(t, fmt.Sprintf("%s %s %v beta %g", s.name, fm.name, sh, beta), c, want, 1e-5, 1e-6*float64(k+1)+1e-6)
				}
			}
		}
	}
}

func TestSgemmDoesNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct {
		form    string
		m, n, k int
		f       func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	}{
		{"NT", 192, 288, 96, SgemmNT},
		{"NN", 192, 96, 288, SgemmNN},
		{"TN", 288, 96, 1152, SgemmTN},
		{"TN", 19, 96, 192, SgemmTN},
		{"NT", 64, 19, 96, SgemmNT},
	} {
		a := randSlice(r, tc.m*tc.k, 0, 1)
		b := randSlice(r, tc.k*tc.n, 0, 1)
		c := make([]float32, tc.m*tc.n)
		lda, ldb := tc.k, tc.n
		if tc.form == "TN" {
			lda = tc.m
		}
		if tc.form == "NT" {
			ldb = tc.k
		}
		allocs := testing.AllocsPerRun(20, func() {
			tc.f(tc.m, tc.n, tc.k, 1, a, lda, b, ldb, 0.5, c, tc.n)
		})
		require.Zerof(t, allocs, "Sgemm%s %dx%dx%d (%s) allocates", tc.form, tc.m, tc.n, tc.k, Backend())
	}
}

func FuzzSgemm(f *testing.F) {
	f.Add(uint8(0), uint8(5), uint8(19), uint8(96), uint8(0), uint8(0), uint8(0), uint8(0), float32(1), float32(0))
	f.Add(uint8(1), uint8(64), uint8(19), uint8(96), uint8(1), uint8(2), uint8(3), uint8(1), float32(-0.5), float32(1))
	f.Add(uint8(2), uint8(19), uint8(96), uint8(200), uint8(3), uint8(0), uint8(7), uint8(2), float32(2), float32(0.75))
	f.Add(uint8(1), uint8(1), uint8(1), uint8(1), uint8(0), uint8(0), uint8(0), uint8(3), float32(1), float32(-1))
	f.Add(uint8(0), uint8(33), uint8(47), uint8(0), uint8(2), uint8(2), uint8(2), uint8(0), float32(1), float32(0.5))
	// NT as the gates run it (n = 3d = 288 does not fit a uint8: 240 and
	// 193, k = 96 and 33), and around one 16-row transpose of its packing.
	f.Add(uint8(1), uint8(96), uint8(240), uint8(32), uint8(0), uint8(0), uint8(0), uint8(0), float32(1), float32(1))
	f.Add(uint8(1), uint8(97), uint8(193), uint8(11), uint8(5), uint8(1), uint8(3), uint8(1), float32(1), float32(0))
	f.Add(uint8(1), uint8(9), uint8(17), uint8(6), uint8(1), uint8(4), uint8(0), uint8(2), float32(-0.5), float32(0.75))
	f.Fuzz(func(t *testing.T, form, m, n, k, padA, padB, padC, shift uint8, alpha, beta float32) {
		sets := gemmSetsUnderTest(t)
		if len(sets) == 0 {
			sets = []*implementation{&generic} // still exercises the guards and NaN handling
		}
		finite := func(v float32) float32 {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || math.Abs(float64(v)) > 1e3 {
				return 1
			}
			return v
		}
		g := gemmCase{m: int(m), n: int(n), k: int(k) * 3, padA: int(padA % 9), padB: int(padB % 9), padC: int(padC % 9),
			shift: int(shift % 4), alpha: finite(alpha), beta: finite(beta)}
		for _, s := range sets {
			r := rand.New(rand.NewPCG(uint64(m)<<16|uint64(n)<<8|uint64(k), uint64(form)))
			checkGemmCase(t, r, int(form%3), s, g)
		}
	})
}

// TestSgemmPublicKZero: the exported GEMMs, on the backend in use, accept
// k = 0 with empty A and B and leave C = beta·C.
func TestSgemmPublicKZero(t *testing.T) {
	for _, f := range []func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int){
		SgemmNN, SgemmNT, SgemmTN} {
		c := []float32{1, 2, 3, 4, 5, 6}
		f(2, 3, 0, 1, nil, 3, nil, 3, 0.5, c, 3)
		require.Equal(t, []float32{0.5, 1, 1.5, 2, 2.5, 3}, c)
		f(2, 3, 0, 1, nil, 3, nil, 3, 0, c, 3)
		require.Equal(t, make([]float32, 6), c)
	}
}

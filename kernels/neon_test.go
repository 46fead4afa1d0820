//go:build arm64 && !purego

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// The NEON kernels against their generic twins, on their own (the
// arch-neutral tests in gemm_test.go, gru_test.go, … also run them). Every
// identifier here starts with neon so that this file stands apart from
// those tests' helpers.

// neonSet is the NEON set, built directly so that SIMDRL_KERNELS does not
// change what these tests cover.
func neonSet(t testing.TB) *implementation {
	t.Helper()
	require.NotNil(t, accelerated, "ASIMD is part of every ARMv8-A core: the NEON set must exist")
	s := generic
	s.name = "neon"
	useNEON(&s)
	return &s
}

// neonMaxDiff tracks the largest |neon − generic| seen by a test, for the log.
type neonMaxDiff struct {
	abs float64 // largest absolute difference
	rel float64 // largest |diff|/|want| where |want| ≥ 1e-3
}

func (m *neonMaxDiff) add(got, want []float32) {
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		if math.IsNaN(g) || math.IsNaN(w) || math.IsInf(w, 0) {
			continue
		}
		d := math.Abs(g - w)
		m.abs = max(m.abs, d)
		if math.Abs(w) >= 1e-3 {
			m.rel = max(m.rel, d/math.Abs(w))
		}
	}
}

func (m *neonMaxDiff) log(t testing.TB, what string) {
	t.Logf("%s: max |neon − generic| = %.3g, max relative (|want| ≥ 1e-3) = %.3g", what, m.abs, m.rel)
}

// neonClose is requireClose with a quick loop first (testify costs about a
// microsecond an element), NaN where and only where want has NaN.
func neonClose(t testing.TB, what string, got, want []float32, rtol, atol float64) {
	t.Helper()
	require.Equal(t, len(want), len(got), what)
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		ok := math.IsNaN(g) == math.IsNaN(w) && (math.IsNaN(w) || g == w || math.Abs(g-w) <= atol+rtol*math.Abs(w))
		if !ok {
			requireClose(t, what, got, want, rtol, atol)
			t.Fatalf("%s[%d]: got %v, want %v", what, i, g, w)
		}
	}
}

// neonCloseTol is neonClose with an absolute tolerance per element.
func neonCloseTol(t testing.TB, what string, got, want []float32, rtol float64, atol []float32) {
	t.Helper()
	require.Equal(t, len(want), len(got), what)
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		ok := math.IsNaN(g) == math.IsNaN(w) && (math.IsNaN(w) || g == w || math.Abs(g-w) <= float64(atol[i])+rtol*math.Abs(w))
		require.Truef(t, ok, "%s[%d]: got %v, want %v (tolerance %v + %v·|want|)", what, i, g, w, atol[i], rtol)
	}
}

// ---------------------------------------------------------------- GEMM

type neonGemmForm struct {
	name      string
	aKT, bNK  bool // A stored k×m (TN); B stored n×k (NT)
	neon, ref neonGemmSig
}

type neonGemmSig = func(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)

func neonGemmForms(s *implementation) []neonGemmForm {
	return []neonGemmForm{
		{"NN", false, false, s.sgemmNN, generic.sgemmNN},
		{"NT", false, true, s.sgemmNT, generic.sgemmNT},
		{"TN", true, false, s.sgemmTN, generic.sgemmTN},
	}
}

type neonGemmCase struct {
	m, n, k          int
	padA, padB, padC int
	shift            int
	alpha, beta      float32
}

func (g neonGemmCase) String() string {
	return fmt.Sprintf("m%d n%d k%d pad%d,%d,%d shift%d alpha%g beta%g", g.m, g.n, g.k, g.padA, g.padB, g.padC, g.shift, g.alpha, g.beta)
}

// neonGemmAlphaBeta are the scalars the cases cycle through; beta = 0 runs
// with NaN in C, which must not come through.
var neonGemmAlphaBeta = [][2]float32{{1, 0}, {1, 1}, {-0.5, 0.75}, {1.25, 0}, {0.5, -2}}

// neonCheckGemm runs one case of one form through NEON and generic and
// compares all of C's buffer: the block within tolerance, padding cells
// (NaN) and guards untouched.
func neonCheckGemm(t testing.TB, r *rand.Rand, f neonGemmForm, g neonGemmCase, md *neonMaxDiff) {
	t.Helper()
	ar, ac := g.m, g.k
	if f.aKT {
		ar, ac = g.k, g.m
	}
	br, bc := g.k, g.n
	if f.bNK {
		br, bc = g.n, g.k
	}
	lda, ldb, ldc := max(ac, 1)+g.padA, max(bc, 1)+g.padB, max(g.n, 1)+g.padC
	a := randSlice(r, span(ar, ac, lda), g.shift%4, 1)
	b := randSlice(r, span(br, bc, ldb), (g.shift+1)%4, 1)
	var fill *rand.Rand
	if g.beta != 0 {
		fill = r
	}
	c := newGuarded(span(g.m, g.n, ldc), (g.shift+3)%4, fill)
	for i := 0; i < g.m; i++ { // padding between rows: NaN, never touched
		for j := g.n; j < ldc && i*ldc+j < len(c.Data); j++ {
			c.Data[i*ldc+j] = float32(math.NaN())
		}
	}
	want, got := c.clone(), c.clone()
	what := f.name + " " + g.String()
	checkGemm(what, g.m, g.n, g.k, a, lda, ar, ac, b, ldb, br, bc, got.Data, ldc)
	if g.m > 0 && g.n > 0 {
		if g.k == 0 {
			scaleC(g.m, g.n, g.beta, want.Data, ldc) // C = beta·C; the generic NT slices an empty B at k = 0
		} else {
			f.ref(g.m, g.n, g.k, g.alpha, a, lda, b, ldb, g.beta, want.Data, ldc)
		}
		f.neon(g.m, g.n, g.k, g.alpha, a, lda, b, ldb, g.beta, got.Data, ldc)
	}
	got.requireGuards(t, what)
	rtol, atol := 1e-5, 1e-6*float64(g.k+1)*math.Abs(float64(g.alpha))+1e-6*math.Abs(float64(g.beta))
	neonClose(t, what, got.Data, want.Data, rtol, atol)
	for i := 0; i < g.m; i++ {
		for j := 0; j < g.n; j++ {
			require.Falsef(t, math.IsNaN(float64(got.Data[i*ldc+j])), "%s: C[%d,%d] is NaN", what, i, j)
		}
	}
	md.add(got.Data, want.Data)
}

// TestNEONSgemmOddShapes: every (m, n) pair of oddSizes, k cycling through
// them, padding, misalignment and scalars cycling too; plus the large size
// in each position (k = 1031 spans several k blocks of 288, n and m several
// column and row blocks).
func TestNEONSgemmOddShapes(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(21, 22))
	for _, f := range neonGemmForms(s) {
		t.Run(f.name, func(t *testing.T) {
			var md neonMaxDiff
			i := 0
			for im, m := range oddSizes {
				for in, n := range oddSizes {
					k := oddSizes[(7*im+3*in)%len(oddSizes)]
					ab := neonGemmAlphaBeta[i%len(neonGemmAlphaBeta)]
					neonCheckGemm(t, r, f, neonGemmCase{m, n, k, i % 3, (i + 1) % 3, (i + 2) % 4, i, ab[0], ab[1]}, &md)
					i++
				}
			}
			L := largeSize
			for j, sh := range [][3]int{{L, 17, 33}, {9, L, 31}, {33, 19, L}, {97, 193, 289}, {65, 97, 577}} {
				ab := neonGemmAlphaBeta[j%len(neonGemmAlphaBeta)]
				neonCheckGemm(t, r, f, neonGemmCase{sh[0], sh[1], sh[2], j % 2, 1, j % 3, j, ab[0], ab[1]}, &md)
			}
			md.log(t, f.name)
		})
	}
}

// TestNEONSgemmModelShapes: the model's hot shapes (rows = 64; 192 and 4096
// only change the number of 64-row blocks, which the odd shapes cover), each
// with every alpha/beta pair.
func TestNEONSgemmModelShapes(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(23, 24))
	shapes := map[string][][3]int{
		"NT": {{64, 288, 96}, {64, 19, 96}, {192, 288, 96}},
		"NN": {{64, 96, 288}, {64, 96, 19}, {192, 96, 288}},
		"TN": {{288, 96, 384}, {19, 96, 384}, {288, 96, 64}},
	}
	for _, f := range neonGemmForms(s) {
		var md neonMaxDiff
		for _, sh := range shapes[f.name] {
			for j, ab := range neonGemmAlphaBeta {
				neonCheckGemm(t, r, f, neonGemmCase{sh[0], sh[1], sh[2], 0, 0, 0, j, ab[0], ab[1]}, &md)
			}
		}
		md.log(t, f.name)
	}
}

// TestNEONSgemmKZero: k = 0 leaves C = beta·C (zeros for beta = 0).
func TestNEONSgemmKZero(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(25, 26))
	for _, f := range neonGemmForms(s) {
		var md neonMaxDiff
		for i, mn := range [][2]int{{1, 1}, {3, 13}, {9, 1}, {17, 25}} {
			ab := neonGemmAlphaBeta[i%len(neonGemmAlphaBeta)]
			neonCheckGemm(t, r, f, neonGemmCase{mn[0], mn[1], 0, 1, 1, i, i, ab[0], ab[1]}, &md)
		}
	}
}

// TestNEONSgemmExactIntegers: with small integers every product and sum is
// exact, so NEON and generic must agree to the bit whatever the order.
func TestNEONSgemmExactIntegers(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(27, 28))
	for _, f := range neonGemmForms(s) {
		for _, sh := range [][3]int{{8, 12, 5}, {16, 24, 300}, {13, 29, 7}} {
			m, n, k := sh[0], sh[1], sh[2]
			a := make([]float32, m*k)
			b := make([]float32, k*n)
			for i := range a {
				a[i] = float32(r.IntN(7) - 3)
			}
			for i := range b {
				b[i] = float32(r.IntN(7) - 3)
			}
			lda, ldb := k, n
			if f.aKT {
				lda = m
			}
			if f.bNK {
				ldb = k
			}
			want := make([]float32, m*n)
			got := make([]float32, m*n)
			f.ref(m, n, k, 1, a, lda, b, ldb, 0, want, n)
			f.neon(m, n, k, 1, a, lda, b, ldb, 0, got, n)
			require.Equalf(t, want, got, "%s %v: integer products must be exact", f.name, sh)
		}
	}
}

// FuzzNEONSgemm: NEON against generic on shapes, padding, alignment and
// scalars from the fuzzer.
func FuzzNEONSgemm(f *testing.F) {
	f.Add(uint8(0), uint8(1), uint8(1), uint8(1), uint8(0), float32(1), float32(0), uint64(1))
	f.Add(uint8(1), uint8(17), uint8(25), uint8(33), uint8(5), float32(-0.5), float32(1), uint64(2))
	f.Add(uint8(2), uint8(9), uint8(13), uint8(97), uint8(7), float32(2), float32(0.5), uint64(3))
	f.Add(uint8(1), uint8(64), uint8(19), uint8(96), uint8(0), float32(1), float32(0), uint64(4))
	f.Add(uint8(0), uint8(66), uint8(98), uint8(200), uint8(3), float32(1), float32(1), uint64(5))
	f.Fuzz(func(t *testing.T, form, m, n, k, pads uint8, alpha, beta float32, seed uint64) {
		finite := func(x float32) bool { return !math.IsNaN(float64(x)) && math.Abs(float64(x)) <= 1e3 }
		if !finite(alpha) || !finite(beta) {
			t.Skip("alpha and beta must be finite and moderate for a tolerance to hold")
		}
		s := neonSet(t)
		fm := neonGemmForms(s)[int(form)%3]
		r := rand.New(rand.NewPCG(seed, 29))
		var md neonMaxDiff
		neonCheckGemm(t, r, fm, neonGemmCase{int(m) % 130, int(n) % 130, int(k), int(pads) % 3, int(pads/3) % 3, int(pads/9) % 3, int(pads), alpha, beta}, &md)
	})
}

// ---------------------------------------------------------------- GRU

// neonGRUInputs draws a step: vocab 5 (tokens repeat, so dTable rows
// accumulate several rows), gate inputs up to scale, hidden in [−1, 1).
type neonGRUInputs struct {
	rows, d       int
	table         []float32
	tokens        []int32
	gh, hPrev, dh []float32
}

func neonNewGRU(r *rand.Rand, rows, d int, scale float32) neonGRUInputs {
	c := neonGRUInputs{rows: rows, d: d}
	c.table = randSlice(r, 5*3*d, 1, scale/2)
	c.tokens = make([]int32, rows)
	for i := range c.tokens {
		c.tokens[i] = int32(r.IntN(5))
	}
	c.gh = randSlice(r, rows*3*d, 2, scale/2)
	c.hPrev = randSlice(r, rows*d, 3, 1)
	c.dh = randSlice(r, rows*d, 1, 1)
	return c
}

// neonCheckGRU runs forward then backward (on the forward's own act) on
// both sets and compares every output, guards included.
func neonCheckGRU(t testing.TB, r *rand.Rand, s *implementation, c neonGRUInputs, what string, fwd, bwd *neonMaxDiff) {
	t.Helper()
	rows, d := c.rows, c.d
	hn := newGuarded(rows*d, 1, nil)
	act := newGuarded(rows*3*d, 2, nil)
	hnW, actW := hn.clone(), act.clone()
	checkGRU(what, rows, d, c.tokens, c.gh, c.hPrev, hn.Data, act.Data)
	if rows > 0 && d > 0 {
		generic.gruForward(rows, d, c.table, c.tokens, c.gh, c.hPrev, hnW.Data, actW.Data)
		s.gruForward(rows, d, c.table, c.tokens, c.gh, c.hPrev, hn.Data, act.Data)
	}
	hn.requireGuards(t, what+" hNext")
	act.requireGuards(t, what+" act")
	// r and z are within a few ulp; n = tanh(gi_n + r·gh_n) inherits r's
	// rounding times |gh_n|, and h' that times (1 − z).
	tolN := make([]float32, rows*3*d)
	tolH := make([]float32, rows*d)
	for b := 0; b < rows; b++ {
		for j := 0; j < d; j++ {
			ghn := math.Abs(float64(c.gh[b*3*d+2*d+j]))
			if math.IsNaN(ghn) || math.IsInf(ghn, 0) {
				ghn = 0 // n is NaN or saturated: exact either way
			}
			tolN[b*3*d+j], tolN[b*3*d+d+j] = 1e-7, 1e-7
			tolN[b*3*d+2*d+j] = float32(1e-7 + 5e-7*ghn)
			tolH[b*d+j] = float32(2e-7 + 5e-7*ghn)
		}
	}
	neonCloseTol(t, what+" act", act.Data, actW.Data, 4e-6, tolN)
	neonCloseTol(t, what+" hNext", hn.Data, hnW.Data, 4e-6, tolH)
	fwd.add(act.Data, actW.Data)
	fwd.add(hn.Data, hnW.Data)

	// Backward from the generic forward's act, so both start equal.
	dgh := newGuarded(rows*3*d, 3, nil)
	dhp := newGuarded(rows*d, 0, nil)
	dt := newGuarded(5*3*d, 1, r) // dTable accumulates onto what is there
	dghW, dhpW, dtW := dgh.clone(), dhp.clone(), dt.clone()
	if rows > 0 && d > 0 {
		generic.gruBack(rows, d, c.tokens, actW.Data, c.gh, c.hPrev, c.dh, dghW.Data, dhpW.Data, dtW.Data)
		s.gruBack(rows, d, c.tokens, actW.Data, c.gh, c.hPrev, c.dh, dgh.Data, dhp.Data, dt.Data)
	}
	for _, o := range []struct {
		name      string
		got, want guarded
	}{{"dgh", dgh, dghW}, {"dhPrev", dhp, dhpW}, {"dTable", dt, dtW}} {
		o.got.requireGuards(t, what+" "+o.name)
		neonClose(t, what+" "+o.name, o.got.Data, o.want.Data, 1e-5, 1e-6)
		bwd.add(o.got.Data, o.want.Data)
	}
}

func TestNEONGRUOddShapes(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(31, 32))
	var fwd, bwd neonMaxDiff
	for _, rows := range []int{0, 1, 2, 3, 7, 8, 9, 17, 33} {
		for i, d := range append(oddSizes, largeSize) {
			scale := []float32{0.5, 4, 30, 300}[i%4]
			neonCheckGRU(t, r, s, neonNewGRU(r, rows, d, scale), fmt.Sprintf("rows=%d d=%d scale=%v", rows, d, scale), &fwd, &bwd)
		}
	}
	neonCheckGRU(t, r, s, neonNewGRU(r, 64, 96, 4), "model shape 64×96", &fwd, &bwd)
	fwd.log(t, "gruForward")
	bwd.log(t, "gruBack")
}

// TestNEONGRUSpecialValues: NaN propagates to exactly the cells generic
// makes NaN, ±Inf and huge inputs saturate.
func TestNEONGRUSpecialValues(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(33, 34))
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	specials := []float32{nan, inf, -inf, 1e30, -1e30, 200, -200, 89, -89, 87, -87, 0, float32(math.Copysign(0, -1))}
	var fwd, bwd neonMaxDiff
	for _, d := range []int{1, 5, 13, 96} {
		c := neonNewGRU(r, 3, d, 4)
		for i := range c.gh {
			if r.IntN(3) == 0 {
				c.gh[i] = specials[r.IntN(len(specials))]
			}
		}
		for i := range c.table {
			if r.IntN(4) == 0 {
				c.table[i] = specials[r.IntN(len(specials))]
			}
		}
		neonCheckGRU(t, r, s, c, fmt.Sprintf("specials d=%d", d), &fwd, &bwd)
	}
	fwd.log(t, "gruForward (specials)")
}

// TestNEONActivationULP sweeps σ and tanh through the NEON forward (one row,
// table row 0 = (x, x, x), gh = 0, so act = σ(x), σ(x), tanh(x)) against
// float64, in ulp, over |x| from 2^−40 to 2^7 and a fine grid around the
// tanh branch point 0.625 and the exp clamps.
func TestNEONActivationULP(t *testing.T) {
	s := neonSet(t)
	var xs []float32
	for e := -40; e <= 6; e++ {
		for k := 0; k < 128; k++ {
			x := float32(math.Ldexp(1+float64(k)/128, e))
			xs = append(xs, x, -x)
		}
	}
	for x := float32(0.6); x < 0.65; x += 1e-4 {
		xs = append(xs, x, -x)
	}
	for x := float32(85); x < 90; x += 0.01 {
		xs = append(xs, x, -x)
	}
	xs = append(xs, 0, float32(math.Inf(1)), float32(math.Inf(-1)), 1e30, -1e30)
	d := len(xs)
	table := make([]float32, 3*d)
	for j, x := range xs {
		table[j], table[d+j], table[2*d+j] = x, x, x
	}
	act, hNext := make([]float32, 3*d), make([]float32, d)
	s.gruForward(1, d, table, []int32{0}, make([]float32, 3*d), make([]float32, d), hNext, act)
	ulp := func(a, b float32) float64 {
		ord := func(x float32) int64 {
			u := int64(math.Float32bits(x))
			if u&(1<<31) != 0 {
				return -(u & (1<<31 - 1))
			}
			return u
		}
		return math.Abs(float64(ord(a) - ord(b)))
	}
	var worstSig, worstTanh float64
	for j, x := range xs {
		sig := float32(1 / (1 + math.Exp(-float64(x))))
		th := float32(math.Tanh(float64(x)))
		require.Equal(t, act[j], act[d+j])
		if sig >= 0x1p-126 {
			worstSig = max(worstSig, ulp(act[j], sig))
			require.LessOrEqualf(t, ulp(act[j], sig), 3.0, "σ(%v) = %v, want %v", x, act[j], sig)
		} else { // σ below the normal range: absolute error
			require.InDeltaf(t, sig, act[j], 0x1p-126, "σ(%v)", x)
		}
		worstTanh = max(worstTanh, ulp(act[2*d+j], th))
		require.LessOrEqualf(t, ulp(act[2*d+j], th), 3.0, "tanh(%v) = %v, want %v", x, act[2*d+j], th)
	}
	t.Logf("NEON σ max error %.0f ulp, tanh %.0f ulp, over %d inputs", worstSig, worstTanh, len(xs))
}

// FuzzNEONGRU: forward and backward against generic on sizes, scale and
// data from the fuzzer.
func FuzzNEONGRU(f *testing.F) {
	f.Add(uint8(1), uint8(1), float32(1), uint64(1))
	f.Add(uint8(3), uint8(96), float32(4), uint64(2))
	f.Add(uint8(17), uint8(97), float32(100), uint64(3))
	f.Add(uint8(2), uint8(7), float32(0.001), uint64(4))
	f.Fuzz(func(t *testing.T, rows, d uint8, scale float32, seed uint64) {
		if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
			scale = 1
		}
		scale = min(float32(math.Abs(float64(scale))), 1000)
		s := neonSet(t)
		r := rand.New(rand.NewPCG(seed, 35))
		var fwd, bwd neonMaxDiff
		neonCheckGRU(t, r, s, neonNewGRU(r, int(rows%40), int(d), scale), fmt.Sprintf("rows=%d d=%d scale=%v", rows%40, d, scale), &fwd, &bwd)
	})
}

// ---------------------------------------------------------------- policy head

// neonCheckPolicy runs forward and backward on both sets: logits rows×cols
// with leading dimension ld (the gap holds NaN, never read), outputs
// guarded; the backward starts from the generic forward's logp.
func neonCheckPolicy(t testing.TB, r *rand.Rand, s *implementation, rows, cols, ld int, scale float32, what string, fwd, bwd *neonMaxDiff) {
	t.Helper()
	logits := randSlice(r, span(rows, cols, ld), (rows+cols)%4, scale)
	for i := range logits {
		if i%ld >= cols {
			logits[i] = float32(math.NaN())
		}
	}
	actions := make([]int32, rows)
	for i := range actions {
		actions[i] = int32(r.IntN(cols))
	}
	dlogp := randSlice(r, rows, 1, 1)
	dent := randSlice(r, rows, 2, 0.1)
	logp, ent := newGuarded(rows*cols, 1, nil), newGuarded(rows, 2, nil)
	logpW, entW := logp.clone(), ent.clone()
	if rows > 0 {
		generic.policyFwd(rows, cols, logits, ld, logpW.Data, entW.Data)
		s.policyFwd(rows, cols, logits, ld, logp.Data, ent.Data)
	}
	logp.requireGuards(t, what+" logp")
	ent.requireGuards(t, what+" ent")
	// logp = x − lse: lse's few-ulp error is absolute, on the scale of |x|.
	neonClose(t, what+" logp", logp.Data, logpW.Data, 1e-6, 4e-7*float64(max(scale, 1)))
	neonClose(t, what+" ent", ent.Data, entW.Data, 1e-5, 2e-6*float64(max(scale, 1)))
	fwd.add(logp.Data, logpW.Data)
	fwd.add(ent.Data, entW.Data)

	dx := newGuarded(span(rows, cols, ld), 3, nil)
	for i := range dx.Data { // the gap between rows is not the kernel's to write
		if i%ld >= cols {
			dx.Data[i] = float32(math.NaN())
		}
	}
	dxW := dx.clone()
	if rows > 0 {
		generic.policyBack(rows, cols, logpW.Data, actions, dlogp, dent, dxW.Data, ld)
		s.policyBack(rows, cols, logpW.Data, actions, dlogp, dent, dx.Data, ld)
	}
	dx.requireGuards(t, what+" dlogits")
	neonClose(t, what+" dlogits", dx.Data, dxW.Data, 1e-5, 2e-6)
	bwd.add(dx.Data, dxW.Data)
}

func TestNEONPolicyOddShapes(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(51, 52))
	var fwd, bwd neonMaxDiff
	i := 0
	for _, rows := range []int{0, 1, 2, 3, 7, 9, 64} {
		for _, cols := range append([]int{18, 19}, append(oddSizes[1:], largeSize)...) {
			scale := []float32{1, 5, 30}[i%3]
			ld := cols + i%3
			neonCheckPolicy(t, r, s, rows, cols, ld, scale, fmt.Sprintf("rows=%d cols=%d ld=%d scale=%v", rows, cols, ld, scale), &fwd, &bwd)
			i++
		}
	}
	fwd.log(t, "policyFwd")
	bwd.log(t, "policyBack")
}

// TestNEONPolicySpecialValues: NaN or +Inf in a row makes that row's outputs
// NaN (as generic), −Inf logits give p = 0 and logp = −Inf.
func TestNEONPolicySpecialValues(t *testing.T) {
	s := neonSet(t)
	cols := 18
	logits := make([]float32, 4*cols)
	for i := range logits {
		logits[i] = float32(i%7) - 3
	}
	logits[0*cols+5] = float32(math.NaN())
	logits[1*cols+17] = float32(math.Inf(1))
	logits[2*cols+3] = float32(math.Inf(-1))
	logits[2*cols+16] = float32(math.Inf(-1))
	for _, set := range []*implementation{&generic, s} {
		logp, ent := make([]float32, 4*cols), make([]float32, 4)
		set.policyFwd(4, cols, logits, cols, logp, ent)
		for j := 0; j < cols; j++ {
			require.Truef(t, math.IsNaN(float64(logp[j])), "%s: NaN row logp[%d] = %v", set.name, j, logp[j])
			require.Truef(t, math.IsNaN(float64(logp[cols+j])), "%s: +Inf row logp[%d] = %v", set.name, j, logp[cols+j])
		}
		require.True(t, math.IsNaN(float64(ent[0])) && math.IsNaN(float64(ent[1])), set.name)
		require.True(t, math.IsInf(float64(logp[2*cols+3]), -1), set.name)
		require.False(t, math.IsNaN(float64(ent[2])), set.name)
	}
	var fwd, bwd neonMaxDiff
	r := rand.New(rand.NewPCG(53, 54))
	neonCheckPolicy(t, r, s, 3, cols, cols, 1, "specials", &fwd, &bwd)
}

// FuzzNEONPolicy: forward and backward against generic.
func FuzzNEONPolicy(f *testing.F) {
	f.Add(uint8(1), uint8(18), uint8(0), float32(1), uint64(1))
	f.Add(uint8(5), uint8(7), uint8(2), float32(20), uint64(2))
	f.Fuzz(func(t *testing.T, rows, cols, pad uint8, scale float32, seed uint64) {
		if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
			scale = 1
		}
		scale = min(float32(math.Abs(float64(scale))), 50)
		c := int(cols)%64 + 1
		var fwd, bwd neonMaxDiff
		neonCheckPolicy(t, rand.New(rand.NewPCG(seed, 55)), neonSet(t), int(rows)%32, c, c+int(pad)%3, scale, "fuzz", &fwd, &bwd)
	})
}

// ---------------------------------------------------------------- Adam, Σx²

func TestNEONAdam(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(41, 42))
	var md neonMaxDiff
	for i, n := range append(oddSizes, largeSize, 4096+3) {
		for step := 1; step <= 3; step += 2 {
			beta1, beta2, lr := 0.9, 0.999, 1e-3
			ss := float32(lr / (1 - math.Pow(beta1, float64(step))))
			bc := float32(math.Sqrt(1 - math.Pow(beta2, float64(step))))
			gs := []float32{1, 0.25}[i%2]
			p := newGuarded(n, i%4, r)
			m := newGuarded(n, (i+1)%4, r)
			v := newGuarded(n, (i+2)%4, r)
			for j := range v.Data {
				v.Data[j] *= v.Data[j] * 0.01
			}
			g := randSlice(r, n, (i+3)%4, 3)
			if n > 10 {
				g[n/2] = float32(math.NaN()) // the NaN reaches p, m, v there only
			}
			pw, mw, vw := p.clone(), m.clone(), v.clone()
			generic.adam(pw.Data, g, mw.Data, vw.Data, gs, float32(beta1), float32(beta2), 1e-8, ss, bc)
			if n > 0 {
				s.adam(p.Data, g, m.Data, v.Data, gs, float32(beta1), float32(beta2), 1e-8, ss, bc)
			}
			what := fmt.Sprintf("adam n=%d step=%d", n, step)
			for _, o := range []struct {
				name      string
				got, want guarded
			}{{"p", p, pw}, {"m", m, mw}, {"v", v, vw}} {
				o.got.requireGuards(t, what+" "+o.name)
				// m = β1·m + (1−β1)·g can cancel: a couple of ulp of the terms (≤ 3).
				neonClose(t, what+" "+o.name, o.got.Data, o.want.Data, 2e-6, 2e-7)
				md.add(o.got.Data, o.want.Data)
			}
		}
	}
	md.log(t, "adam")
}

func TestNEONSumSquares(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(43, 44))
	worst := 0.0
	for i, n := range append(oddSizes, 4, 5, 6, 12, 23, 24, 25, largeSize, 100003) {
		x := randSlice(r, n, i%4, 10)
		if n == 0 {
			continue
		}
		want := generic.sumSquares(x)
		got := s.sumSquares(x)
		require.InDeltaf(t, want, got, 1e-13*want+1e-300, "sumSquares n=%d", n)
		if want > 0 {
			worst = max(worst, math.Abs(got-want)/want)
		}
	}
	x := []float32{1, 2, float32(math.Inf(1)), 3, 4, 5, 6, 7, 8}
	require.True(t, math.IsInf(s.sumSquares(x), 1))
	x[2] = float32(math.NaN())
	require.True(t, math.IsNaN(s.sumSquares(x)))
	x[2] = 3e38 // its square is beyond float32: the float64 sum must hold it
	require.InDelta(t, generic.sumSquares(x), s.sumSquares(x), 1e-15*generic.sumSquares(x))
	require.Greater(t, s.sumSquares(x), 8.99e76)
	t.Logf("sumSquares: max relative |neon − generic| = %.3g", worst)
}

// ---------------------------------------------------------------- allocation

func TestNEONDoesNotAllocate(t *testing.T) {
	s := neonSet(t)
	r := rand.New(rand.NewPCG(45, 46))
	a := randSlice(r, 288*384, 1, 1)
	b := randSlice(r, 288*384, 0, 1)
	c := make([]float32, 288*288)
	for name, f := range map[string]func(){
		"sgemmNT 64×288×96":  func() { s.sgemmNT(64, 288, 96, 1, a, 96, b, 96, 0, c, 288) },
		"sgemmNN 64×96×288":  func() { s.sgemmNN(64, 96, 288, 1, a, 288, b, 96, 1, c, 96) },
		"sgemmTN 288×96×384": func() { s.sgemmTN(288, 96, 384, 1, a, 288, b, 96, 1, c, 96) },
		"sgemmNT 61×19×96":   func() { s.sgemmNT(61, 19, 96, 1, a, 96, b, 96, 0, c, 19) },
		"SgemmNT (dispatch)": func() { SgemmNT(64, 288, 96, 1, a, 96, b, 96, 0, c, 288) },
	} {
		require.Zerof(t, testing.AllocsPerRun(20, f), "%s allocates", name)
	}
	g := neonNewGRU(r, 8, 97, 4)
	act, hn := make([]float32, 8*3*97), make([]float32, 8*97)
	dgh, dhp, dt := make([]float32, 8*3*97), make([]float32, 8*97), make([]float32, 5*3*97)
	require.Zero(t, testing.AllocsPerRun(20, func() {
		s.gruForward(8, 97, g.table, g.tokens, g.gh, g.hPrev, hn, act)
		s.gruBack(8, 97, g.tokens, act, g.gh, g.hPrev, g.dh, dgh, dhp, dt)
	}), "GRU allocates")
	lp, ent, dx := make([]float32, 64*18), make([]float32, 64), make([]float32, 64*19)
	acts := make([]int32, 64)
	require.Zero(t, testing.AllocsPerRun(20, func() {
		s.policyFwd(64, 18, a, 19, lp, ent)
		s.policyBack(64, 18, lp, acts, a[:64], b[:64], dx, 19)
	}), "policy head allocates")
	p, m, v := make([]float32, 1031), make([]float32, 1031), make([]float32, 1031)
	require.Zero(t, testing.AllocsPerRun(20, func() {
		s.adam(p, a[:1031], m, v, 1, 0.9, 0.999, 1e-8, 1e-3, 0.03)
		_ = s.sumSquares(a[:1031])
	}), "Adam/sumSquares allocate")
}

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// liveCase is one SgemmTNLive call: a gemmCase and which steps of k live.
type liveCase struct {
	g       gemmCase
	pattern int // 0 all live, 1 none, 2 random half, 3 every third, 4 the first and last only, 5 runs
	zeroB   bool
}

// liveMask is the case's live steps; the dead ones get a zero row of A (or
// of B with zeroB), as SgemmTNLive requires.
func (c liveCase) liveMask(r *rand.Rand, o gemmOperands) []bool {
	live := make([]bool, c.g.k)
	for p := range live {
		switch c.pattern {
		case 0:
			live[p] = true
		case 2:
			live[p] = r.IntN(2) == 0
		case 3:
			live[p] = p%3 == 0
		case 4:
			live[p] = p == 0 || p == c.g.k-1
		case 5:
			live[p] = (p/37)%2 == 0
		}
		if live[p] || c.g.m == 0 || c.g.n == 0 {
			continue
		}
		if c.zeroB {
			clear(o.b[p*o.ldb : p*o.ldb+c.g.n])
		} else {
			clear(o.a[p*o.lda : p*o.lda+c.g.m])
		}
	}
	return live
}

// checkLive: on set s, SgemmTNLive gives SgemmTN's C, float for float
// (== : a sum of zeros only may differ in its sign), and writes nothing
// outside C; with beta = 0 the NaNs in C do not propagate.
func checkLive(t *testing.T, r *rand.Rand, s *implementation, c liveCase) {
	g := c.g
	o := newGemmOperands(r, true, false, g)
	live := c.liveMask(r, o)
	want := o.c.clone()
	o.call(s.sgemmTN, true, false, g, want.Data)
	got := o.c.clone()
	checkGemm("test", g.m, g.n, g.k, o.a, o.lda, g.k, g.m, o.b, o.ldb, g.k, g.n, got.Data, o.ldc)
	if g.m > 0 && g.n > 0 {
		tnLive(s, g.m, g.n, g.k, g.alpha, o.a, o.lda, false, o.b, o.ldb, false, g.beta, got.Data, o.ldc, live)
	}
	name := fmt.Sprintf("%s/%v/pattern%d/zeroB%v", s.name, g, c.pattern, c.zeroB)
	got.requireGuards(t, name)
	checkLiveRows(t, s, c, o, live, got.Data, name)
	for i := 0; i < g.m; i++ {
		for j := 0; j < g.n; j++ {
			w, x := want.Data[i*o.ldc+j], got.Data[i*o.ldc+j]
			if w != x && !(math.IsNaN(float64(w)) && math.IsNaN(float64(x))) {
				require.Failf(t, "SgemmTNLive differs from SgemmTN", "%s: C[%d][%d] = %g, want %g", name, i, j, x, w)
			}
		}
	}
	if g.beta == 0 {
		requireNoNaNInC(t, name, g, o, got.Data)
	}
}

// liveRows keeps the live rows of a k-row operand (rows ld apart, cols
// wide) only, in order, ld apart, on a sub-slice shifted off its
// allocation's alignment.
func liveRows(x []float32, ld, cols int, live []bool, shift int) []float32 {
	var kept []float32
	for p, l := range live {
		if l {
			kept = append(kept, x[p*ld:p*ld+cols]...)
			kept = append(kept, make([]float32, ld-cols)...)
		}
	}
	return append(make([]float32, shift, shift+len(kept)), kept...)[shift:]
}

// checkLiveRows: with either operand or both kept as their live rows only,
// tnLive gives its result on the full operands (want) bit for bit and
// writes nothing outside C.
func checkLiveRows(t *testing.T, s *implementation, c liveCase, o gemmOperands, live []bool, want []float32, name string) {
	g := c.g
	if g.m == 0 || g.n == 0 {
		return
	}
	a, b := liveRows(o.a, o.lda, g.m, live, g.shift), liveRows(o.b, o.ldb, g.n, live, (g.shift+1)%4)
	for _, kept := range [][2]bool{{true, false}, {false, true}, {true, true}} {
		got := o.c.clone()
		x, y := o.a, o.b
		if kept[0] {
			x = a
		}
		if kept[1] {
			y = b
		}
		tnLive(s, g.m, g.n, g.k, g.alpha, x, o.lda, kept[0], y, o.ldb, kept[1], g.beta, got.Data, o.ldc, live)
		got.requireGuards(t, name)
		for i := 0; i < g.m; i++ {
			for j := 0; j < g.n; j++ {
				w, v := want[i*o.ldc+j], got.Data[i*o.ldc+j]
				if math.Float32bits(w) != math.Float32bits(v) && !(math.IsNaN(float64(w)) && math.IsNaN(float64(v))) {
					require.Failf(t, "SgemmTNLiveRows differs from SgemmTNLive", "%s, rows kept %v: C[%d][%d] = %g, want %g", name, kept, i, j, v, w)
				}
			}
		}
	}
}

// liveSets is every set SgemmTNLive can run on here: generic, then the
// assembly ones.
func liveSets(t testing.TB) []*implementation {
	return append([]*implementation{&generic}, gemmSetsUnderTest(t)...)
}

// TestSgemmTNLiveIsSgemmTN: on odd and model shapes (k across the sets'
// block sizes: 255–257, 319–321, several blocks), paddings, misalignments
// and scalars, every pattern of dead steps.
func TestSgemmTNLiveIsSgemmTN(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	shapes := [][3]int{{0, 5, 7}, {5, 0, 7}, {3, 4, 0}, {1, 1, 1}, {19, 96, 577}, {288, 96, 1248}, {288, 96, 96},
		{95, 97, 255}, {96, 96, 256}, {97, 95, 257}, {191, 48, 319}, {192, 16, 320}, {193, 19, 321}, {288, 128, 2880}, {7, 3, 1000}}
	for _, s := range liveSets(t) {
		for _, sh := range shapes {
			for pattern := 0; pattern < 6; pattern++ {
				for i, sc := range [][2]float32{{1, 1}, {1, 0}, {0.7, 0.5}} {
					if testing.Short() && i != pattern%3 {
						continue // -short: the scalars take turns over the patterns
					}
					g := gemmCase{m: sh[0], n: sh[1], k: sh[2], alpha: sc[0], beta: sc[1],
						padA: pattern % 3, padC: (pattern + 1) % 2, shift: pattern % 4}
					checkLive(t, r, s, liveCase{g: g, pattern: pattern, zeroB: pattern == 5})
				}
			}
		}
	}
}

// TestSgemmTNLivePublic: the exported wrapper checks its sizes and runs the
// backend's set; it allocates nothing once its scratch has grown.
func TestSgemmTNLivePublic(t *testing.T) {
	const m, n, k = 288, 96, 1152
	r := rand.New(rand.NewPCG(5, 6))
	a, b := randSlice(r, k*m, 0, 1), randSlice(r, k*n, 0, 1)
	live := make([]bool, k)
	for p := range live {
		live[p] = p%2 == 0
		if !live[p] {
			clear(a[p*m : (p+1)*m])
		}
	}
	want, got := make([]float32, m*n), make([]float32, m*n)
	SgemmTN(m, n, k, 1, a, m, b, n, 0, want, n)
	SgemmTNLive(m, n, k, 1, a, m, b, n, 0, got, n, live)
	require.Equal(t, want, got)
	require.Zero(t, testing.AllocsPerRun(10, func() { SgemmTNLive(m, n, k, 1, a, m, b, n, 1, got, n, live) }))
	require.Panics(t, func() { SgemmTNLive(m, n, k, 1, a, m, b, n, 0, got, n, live[:k-1]) }, "a short live mask")
	require.Panics(t, func() { SgemmTNLive(m, n, k, 1, a[:len(a)-1], m, b, n, 0, got, n, live) }, "a short A")

	// The same with A kept as its live rows, then B too.
	ka, kb := liveRows(a, m, m, live, 0), liveRows(b, n, n, live, 0)
	rows := make([]float32, m*n)
	SgemmTNLiveRows(m, n, k, 1, ka, m, true, b, n, false, 0, rows, n, live)
	require.Equal(t, want, rows)
	SgemmTNLiveRows(m, n, k, 1, ka, m, true, kb, n, true, 0, rows, n, live)
	require.Equal(t, want, rows)
	require.Zero(t, testing.AllocsPerRun(10, func() { SgemmTNLiveRows(m, n, k, 1, ka, m, true, b, n, false, 1, rows, n, live) }))
	require.Zero(t, testing.AllocsPerRun(10, func() { SgemmTNLiveRows(m, n, k, 1, ka, m, true, kb, n, true, 1, rows, n, live) }))
	require.Panics(t, func() { SgemmTNLiveRows(m, n, k, 1, ka[:len(ka)-1], m, true, b, n, false, 0, rows, n, live) }, "a short kept A")
	require.Panics(t, func() { SgemmTNLiveRows(m, n, k, 1, ka, m, true, kb[:len(kb)-1], n, true, 0, rows, n, live) }, "a short kept B")
	require.Panics(t, func() { SgemmTNLiveRows(m, n, k, 1, ka, m, true, b, n, false, 0, rows, n, live[:k-1]) }, "a short live mask")
}

func FuzzSgemmTNLive(f *testing.F) {
	f.Add(uint8(19), uint8(96), uint16(577), uint8(2), uint8(0), uint8(1), float32(1), float32(1))
	f.Add(uint8(200), uint8(96), uint16(1248), uint8(5), uint8(3), uint8(0), float32(1), float32(0))
	f.Add(uint8(1), uint8(1), uint16(0), uint8(1), uint8(0), uint8(2), float32(-0.5), float32(0.75))
	f.Fuzz(func(t *testing.T, m, n uint8, k uint16, pattern, pad, shift uint8, alpha, beta float32) {
		finite := func(v float32) float32 {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || math.Abs(float64(v)) > 1e3 {
				return 1
			}
			return v
		}
		g := gemmCase{m: int(m), n: int(n), k: int(k % 3000), padA: int(pad % 5), padB: int(pad % 3), padC: int(pad % 2),
			shift: int(shift % 4), alpha: finite(alpha), beta: finite(beta)}
		for _, s := range liveSets(t) {
			r := rand.New(rand.NewPCG(uint64(m)<<8|uint64(n), uint64(k)))
			checkLive(t, r, s, liveCase{g: g, pattern: int(pattern % 6), zeroB: pattern%2 == 1})
		}
	})
}

package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// gruCase is one GRU step's inputs: a token table of vocab rows, rows×3d gh,
// rows×d hPrev, and for backward rows×d dhNext; all slices misaligned.
type gruCase struct {
	rows, d, vocab int
	table          []float32
	tokens         []int32
	gh, hPrev      []float32
	dhNext         []float32
}

// newGRUCase draws a case with gate inputs of magnitude up to scale (table
// and gh each up to scale/2) and hidden states in [−1, 1).
func newGRUCase(r *rand.Rand, rows, d int, scale float32) gruCase {
	vocab := 5
	c := gruCase{rows: rows, d: d, vocab: vocab}
	c.table = randSlice(r, vocab*3*d, 1, scale/2)
	c.tokens = make([]int32, rows)
	for i := range c.tokens {
		c.tokens[i] = int32(r.IntN(vocab))
	}
	c.gh = randSlice(r, rows*3*d, 3, scale/2)
	c.hPrev = randSlice(r, rows*d, 1, 1)
	c.dhNext = randSlice(r, rows*d, 2, 1)
	return c
}

// gruRefForward is the step in float64 from the float32 inputs.
func gruRefForward(c gruCase) (hNext, act []float64) {
	d := c.d
	hNext, act = make([]float64, c.rows*d), make([]float64, c.rows*3*d)
	sig := func(x float64) float64 { return 1 / (1 + math.Exp(-x)) }
	for b := 0; b < c.rows; b++ {
		gi := c.table[int(c.tokens[b])*3*d:]
		g := c.gh[b*3*d:]
		for j := 0; j < d; j++ {
			r := sig(float64(gi[j]) + float64(g[j]))
			z := sig(float64(gi[d+j]) + float64(g[d+j]))
			n := math.Tanh(float64(gi[2*d+j]) + r*float64(g[2*d+j]))
			act[b*3*d+j], act[b*3*d+d+j], act[b*3*d+2*d+j] = r, z, n
			hNext[b*d+j] = (1-z)*n + z*float64(c.hPrev[b*d+j])
		}
	}
	return hNext, act
}

// gruRefBackward is the backward in float64, taking act from the float64
// forward: the gradients of L = Σ dhNext·h' w.r.t. gh, hPrev (with gh held
// fixed) and the table.
func gruRefBackward(c gruCase) (dgh, dhPrev, dTable []float64) {
	d := c.d
	_, act := gruRefForward(c)
	dgh, dhPrev, dTable = make([]float64, c.rows*3*d), make([]float64, c.rows*d), make([]float64, c.vocab*3*d)
	for b := 0; b < c.rows; b++ {
		dt := dTable[int(c.tokens[b])*3*d:]
		for j := 0; j < d; j++ {
			r, z, n := act[b*3*d+j], act[b*3*d+d+j], act[b*3*d+2*d+j]
			dh, hp, ghn := float64(c.dhNext[b*d+j]), float64(c.hPrev[b*d+j]), float64(c.gh[b*3*d+2*d+j])
			dan := dh * (1 - z) * (1 - n*n)
			dar := dan * ghn * r * (1 - r)
			daz := dh * (hp - n) * z * (1 - z)
			dgh[b*3*d+j], dgh[b*3*d+d+j], dgh[b*3*d+2*d+j] = dar, daz, dan*r
			dt[j] += dar
			dt[d+j] += daz
			dt[2*d+j] += dan
			dhPrev[b*d+j] = dh * z
		}
	}
	return dgh, dhPrev, dTable
}

// closeStats records the largest differences seen by requireCloseFast, per
// output, for the log (the numbers quoted for the kernels).
type closeStats map[string]*[2]float64 // max |got−want|, max ulp distance where |want| ≥ 1e-3

var maxDiff = closeStats{}

// requireCloseFast is requireClose without testify's per-element cost: it
// checks the bound in a plain loop and hands over to requireClose (for the
// message) only when something fails. key names the output in maxDiff.
func requireCloseFast(t testing.TB, key, what string, got, want []float32, rtol, atol float64) {
	t.Helper()
	ok := len(got) == len(want)
	st := maxDiff[key]
	if st == nil {
		st = new([2]float64)
		maxDiff[key] = st
	}
	for i := 0; ok && i < len(want); i++ {
		g, w := float64(got[i]), float64(want[i])
		if math.IsNaN(w) || math.IsNaN(g) {
			ok = math.IsNaN(w) && math.IsNaN(g)
			continue
		}
		if g == w { // infinities included
			continue
		}
		d := math.Abs(g - w)
		st[0] = max(st[0], d)
		if math.Abs(w) >= 1e-3 {
			st[1] = max(st[1], ulpDist(got[i], want[i]))
		}
		ok = d <= atol+rtol*math.Abs(w)
	}
	if !ok {
		requireClose(t, what, got, want, rtol, atol)
		require.FailNowf(t, "mismatch", "%s: requireClose found no element out of bounds", what)
	}
}

// logMaxDiff logs and resets the differences recorded under keys.
func logMaxDiff(t testing.TB, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if st := maxDiff[k]; st != nil {
			t.Logf("max difference vs generic, %s: %.3g absolute, %.0f ulp where |generic| ≥ 1e-3", k, st[0], st[1])
			delete(maxDiff, k)
		}
	}
}

// gruOut is one run's outputs, each with NaN guards.
type gruOut struct{ hNext, act, dgh, dhPrev, dTable guarded }

func newGRUOut(r *rand.Rand, c gruCase) gruOut {
	dTable := newGuarded(c.vocab*3*c.d, 1, r) // backward adds into it
	return gruOut{
		hNext:  newGuarded(c.rows*c.d, 1, nil),
		act:    newGuarded(c.rows*3*c.d, 3, nil),
		dgh:    newGuarded(c.rows*3*c.d, 2, nil),
		dhPrev: newGuarded(c.rows*c.d, 3, nil),
		dTable: dTable,
	}
}

func (o gruOut) clone() gruOut {
	return gruOut{o.hNext.clone(), o.act.clone(), o.dgh.clone(), o.dhPrev.clone(), o.dTable.clone()}
}

// runGRU runs s's forward, then its backward on the forward's act.
func runGRU(s *implementation, c gruCase, o gruOut) {
	s.gruForward(c.rows, c.d, c.table, c.tokens, c.gh, c.hPrev, o.hNext.Data, o.act.Data)
	s.gruBack(c.rows, c.d, c.tokens, o.act.Data, c.gh, c.hPrev, c.dhNext, o.dgh.Data, o.dhPrev.Data, o.dTable.Data)
}

func (o gruOut) requireGuards(t testing.TB, what string) {
	t.Helper()
	o.hNext.requireGuards(t, what+" hNext")
	o.act.requireGuards(t, what+" act")
	o.dgh.requireGuards(t, what+" dgh")
	o.dhPrev.requireGuards(t, what+" dhPrev")
	o.dTable.requireGuards(t, what+" dTable")
}

func requireClose64(t testing.TB, what string, got []float32, want []float64, rtol, atol float64) {
	t.Helper()
	require.Equalf(t, len(want), len(got), "%s: length", what)
	for i := range want {
		g, w := float64(got[i]), want[i]
		require.LessOrEqualf(t, math.Abs(g-w), atol+rtol*math.Abs(w), "%s[%d]: got %v, want %v", what, i, g, w)
	}
}

func TestGRUGenericMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, rows := range []int{1, 3, 17} {
		for _, d := range []int{1, 7, 96} {
			for _, scale := range []float32{2, 20} {
				c := newGRUCase(r, rows, d, scale)
				o := newGRUOut(r, c)
				dTable0 := append([]float32(nil), o.dTable.Data...)
				runGRU(&generic, c, o)
				hNext, act := gruRefForward(c)
				dgh, dhPrev, dTable := gruRefBackward(c)
				for i := range dTable {
					dTable[i] += float64(dTable0[i])
				}
				what := fmt.Sprintf("rows=%d d=%d scale=%v", rows, d, scale)
				requireClose64(t, what+" hNext", o.hNext.Data, hNext, 1e-5, 1e-6)
				requireClose64(t, what+" act", o.act.Data, act, 1e-5, 1e-6)
				// Backward: act went through float32, so allow for its rounding
				// times the size of gh_n.
				atol := 1e-6 * float64(scale)
				requireClose64(t, what+" dgh", o.dgh.Data, dgh, 1e-5, atol)
				requireClose64(t, what+" dhPrev", o.dhPrev.Data, dhPrev, 1e-5, 1e-6)
				requireClose64(t, what+" dTable", o.dTable.Data, dTable, 1e-5, atol)
				o.requireGuards(t, what)
			}
		}
	}
}

// TestGRUBackwardFiniteDifferences checks the float64 reference backward (the
// yardstick above) against central differences of the float64 forward, and
// the kernels' backward against both.
func TestGRUBackwardFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	c := newGRUCase(r, 3, 5, 4)
	c.tokens = []int32{2, 0, 2} // a repeated token: dTable sums over rows
	loss := func() float64 {
		h, _ := gruRefForward(c)
		var l float64
		for i, v := range h {
			l += v * float64(c.dhNext[i])
		}
		return l
	}
	// fd perturbs x[i] by ±h (in float32, so the step is exactly what the
	// forward sees) and returns the central difference.
	fd := func(x []float32, i int) float64 {
		x0 := x[i]
		h := float32(1e-3) * max(1, float32(math.Abs(float64(x0))))
		x[i] = x0 + h
		hp := float64(x[i]) - float64(x0)
		lp := loss()
		x[i] = x0 - h
		hm := float64(x0) - float64(x[i])
		lm := loss()
		x[i] = x0
		return (lp - lm) / (hp + hm)
	}
	dgh, dhPrev, dTable := gruRefBackward(c)
	for i := range c.gh {
		require.InDeltaf(t, fd(c.gh, i), dgh[i], 1e-5, "dgh[%d]", i)
	}
	for i := range c.hPrev {
		require.InDeltaf(t, fd(c.hPrev, i), dhPrev[i], 1e-5, "dhPrev[%d]", i)
	}
	for i := range c.table {
		require.InDeltaf(t, fd(c.table, i), dTable[i], 1e-5, "dTable[%d]", i)
	}

	sets := []*implementation{&generic}
	if s := underTest(t); s != nil {
		sets = append(sets, s)
	}
	for _, s := range sets {
		o := newGRUOut(r, c)
		clear(o.dTable.Data)
		runGRU(s, c, o)
		requireClose64(t, s.name+" dgh", o.dgh.Data, dgh, 1e-5, 1e-6)
		requireClose64(t, s.name+" dhPrev", o.dhPrev.Data, dhPrev, 1e-5, 1e-6)
		requireClose64(t, s.name+" dTable", o.dTable.Data, dTable, 1e-5, 1e-6)
	}
}

// gruTolerance is how close the assembly must come to the Go twin. The
// gates are within a few ulp; n = tanh(gi_n + r·gh_n) inherits r's rounding
// times |gh_n|, and h' = (1−z)·n + z·h can cancel, hence the absolute part
// that grows with the input scale.
func gruTolerance(scale float32) (rtol, atol float64) {
	return 1e-5, 1e-6 * max(1, float64(scale))
}

// compareGRU runs both sets on c and requires close outputs and intact guards.
func compareGRU(t testing.TB, r *rand.Rand, s *implementation, c gruCase, scale float32, what string) {
	t.Helper()
	want := newGRUOut(r, c)
	got := want.clone() // the same dTable to add into
	generic.gruForward(c.rows, c.d, c.table, c.tokens, c.gh, c.hPrev, want.hNext.Data, want.act.Data)
	s.gruForward(c.rows, c.d, c.table, c.tokens, c.gh, c.hPrev, got.hNext.Data, got.act.Data)
	rtol, atol := gruTolerance(scale)
	requireCloseFast(t, "gru hNext", what+" hNext", got.hNext.Data, want.hNext.Data, rtol, atol)
	requireCloseFast(t, "gru act", what+" act", got.act.Data, want.act.Data, rtol, atol)
	// Backward on the same act (the assembly's), so that only the backward
	// differs: it does the Go twin's operations in its order.
	copy(want.act.Data, got.act.Data)
	generic.gruBack(c.rows, c.d, c.tokens, want.act.Data, c.gh, c.hPrev, c.dhNext, want.dgh.Data, want.dhPrev.Data, want.dTable.Data)
	s.gruBack(c.rows, c.d, c.tokens, got.act.Data, c.gh, c.hPrev, c.dhNext, got.dgh.Data, got.dhPrev.Data, got.dTable.Data)
	requireCloseFast(t, "gru dgh", what+" dgh", got.dgh.Data, want.dgh.Data, 1e-6, 1e-7)
	requireCloseFast(t, "gru dhPrev", what+" dhPrev", got.dhPrev.Data, want.dhPrev.Data, 1e-6, 1e-7)
	requireCloseFast(t, "gru dTable", what+" dTable", got.dTable.Data, want.dTable.Data, 1e-6, 1e-7)
	got.requireGuards(t, what)
}

func TestGRUAcceleratedMatchesGeneric(t *testing.T) {
	s := underTest(t)
	if s == nil {
		return
	}
	r := rand.New(rand.NewPCG(5, 6))
	for _, rows := range oddSizes {
		for _, d := range oddSizes {
			compareGRU(t, r, s, newGRUCase(r, rows, d, 4), 4, fmt.Sprintf("rows=%d d=%d", rows, d))
		}
	}
	compareGRU(t, r, s, newGRUCase(r, largeSize, 96, 4), 4, "rows=large d=96")
	compareGRU(t, r, s, newGRUCase(r, 3, largeSize, 4), 4, "rows=3 d=large")
	logMaxDiff(t, "gru hNext", "gru act", "gru dgh", "gru dhPrev", "gru dTable")
	// Extreme gate inputs: |x| up to 100 saturates every gate.
	for _, d := range []int{1, 9, 96, 97} {
		compareGRU(t, r, s, newGRUCase(r, 33, d, 200), 200, fmt.Sprintf("extreme d=%d", d))
	}
	t.Log("extreme inputs (|x| up to 100 per gate input, 200 summed):")
	logMaxDiff(t, "gru hNext", "gru act", "gru dgh", "gru dhPrev", "gru dTable")
}

// TestGRUNaNPropagates puts one NaN into each input of one cell and requires
// NaN exactly where the Go twin has it: that cell's outputs, nothing else.
func TestGRUNaNPropagates(t *testing.T) {
	sets := []*implementation{&generic}
	if s := underTest(t); s != nil {
		sets = append(sets, s)
	}
	r := rand.New(rand.NewPCG(7, 8))
	nan := float32(math.NaN())
	const rows, d, b, j = 4, 19, 2, 17 // j in the masked tail of a 19-wide row
	for gate := 0; gate < 3; gate++ {
		for _, s := range sets {
			c := newGRUCase(r, rows, d, 4)
			c.gh[b*3*d+gate*d+j] = nan
			o := newGRUOut(r, c)
			clear(o.dTable.Data)
			runGRU(s, c, o)
			// Forward: r or z NaN → that cell's h' NaN; r NaN also makes n NaN.
			wantAct := map[int]bool{gate: true, 2: true} // n depends on r and gh_n
			if gate == 1 {
				wantAct = map[int]bool{1: true}
			}
			for i, v := range o.act.Data {
				row, g, col := i/(3*d), (i%(3*d))/d, i%d
				require.Equalf(t, row == b && col == j && wantAct[g], math.IsNaN(float64(v)),
					"%s gate %d: act[%d] = %v", s.name, gate, i, v)
			}
			for i, v := range o.hNext.Data {
				require.Equalf(t, i == b*d+j, math.IsNaN(float64(v)), "%s gate %d: hNext[%d] = %v", s.name, gate, i, v)
			}
			o.requireGuards(t, s.name)
		}
	}
	// And the assembly agrees with the twin on every cell, NaN or not.
	if len(sets) == 2 {
		for gate := 0; gate < 3; gate++ {
			c := newGRUCase(r, rows, d, 4)
			c.gh[b*3*d+gate*d+j] = nan
			c.table[int(c.tokens[0])*3*d+gate*d+1] = nan
			compareGRU(t, r, sets[1], c, 4, fmt.Sprintf("NaN gate %d", gate))
		}
	}
}

// ulpDist is the number of float32 steps between a and b.
func ulpDist(a, b float32) float64 {
	ord := func(x float32) int64 {
		u := int64(math.Float32bits(x))
		if u&(1<<31) != 0 {
			return -(u & (1<<31 - 1))
		}
		return u
	}
	return math.Abs(float64(ord(a) - ord(b)))
}

// TestGRUActivationAccuracy sweeps σ and tanh through the forward kernel
// (gh = 0, so act holds σ(x), σ(x), tanh(x) for x in the table) and bounds
// their error against float64 in ulp: over every exponent from 2^−30 to
// 2^7 (|x| up to 128), both signs, densely around tanh's clamp at |x| = 9.5
// and the points where exp's reduction changes n (|x| ≈ k·ln2/2).
func TestGRUActivationAccuracy(t *testing.T) {
	var xs []float32
	for e := -30; e <= 6; e++ {
		for k := 0; k < 64; k++ {
			x := float32(math.Ldexp(1+float64(k)/64, e))
			xs = append(xs, x, -x)
		}
	}
	for x := float32(0); x < 10; x += 1.0 / 512 {
		xs = append(xs, x, -x)
	}
	xs = append(xs, 0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)))
	sets := []*implementation{&generic}
	if s := underTest(t); s != nil {
		sets = append(sets, s)
	}
	d := len(xs)
	table := make([]float32, 3*d)
	for j, x := range xs {
		table[j], table[d+j], table[2*d+j] = x, x, x
	}
	gh := make([]float32, 3*d)
	hPrev := make([]float32, d)
	for _, s := range sets {
		act, hNext := make([]float32, 3*d), make([]float32, d)
		s.gruForward(1, d, table, []int32{0}, gh, hPrev, hNext, act)
		var worstSig, worstTanh float64
		for j, x := range xs {
			sig := float32(1 / (1 + math.Exp(-float64(x))))
			th := float32(math.Tanh(float64(x)))
			require.Equalf(t, act[j], act[d+j], "%s: r and z differ at x=%v", s.name, x)
			// σ underflows to subnormals below x ≈ −87: there count absolute error.
			if sig >= 0x1p-126 {
				worstSig = max(worstSig, ulpDist(act[j], sig))
				require.LessOrEqualf(t, ulpDist(act[j], sig), 4.0, "%s σ(%v) = %v, want %v", s.name, x, act[j], sig)
			} else {
				require.InDeltaf(t, sig, act[j], 0x1p-126, "%s σ(%v)", s.name, x)
			}
			worstTanh = max(worstTanh, ulpDist(act[2*d+j], th))
			require.LessOrEqualf(t, ulpDist(act[2*d+j], th), 4.0, "%s tanh(%v) = %v, want %v", s.name, x, act[2*d+j], th)
		}
		t.Logf("%s: max error σ %.0f ulp, tanh %.0f ulp over %d inputs", s.name, worstSig, worstTanh, len(xs))
	}
}

func TestGRUDoesNotAllocate(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	c := newGRUCase(r, 8, 97, 4)
	o := newGRUOut(r, c)
	sets := []*implementation{&generic}
	if s := underTest(t); s != nil {
		sets = append(sets, s)
	}
	for _, s := range sets {
		require.Zerof(t, testing.AllocsPerRun(10, func() {
			s.gruForward(c.rows, c.d, c.table, c.tokens, c.gh, c.hPrev, o.hNext.Data, o.act.Data)
		}), "%s gruForward allocates", s.name)
		require.Zerof(t, testing.AllocsPerRun(10, func() {
			s.gruBack(c.rows, c.d, c.tokens, o.act.Data, c.gh, c.hPrev, c.dhNext, o.dgh.Data, o.dhPrev.Data, o.dTable.Data)
		}), "%s gruBack allocates", s.name)
	}
	require.Zero(t, testing.AllocsPerRun(10, func() {
		GRUForward(c.rows, c.d, c.table, c.tokens, c.gh, c.hPrev, o.hNext.Data, o.act.Data)
		GRUBackward(c.rows, c.d, c.tokens, o.act.Data, c.gh, c.hPrev, c.dhNext, o.dgh.Data, o.dhPrev.Data, o.dTable.Data)
	}))
}

// FuzzGRUForward compares the assembly step (forward and backward) with the
// Go twin on sizes, scale and data from the fuzzer; without assembly it
// checks the twin against the float64 reference.
func FuzzGRUForward(f *testing.F) {
	f.Add(uint8(1), uint8(1), float32(1), uint64(1))
	f.Add(uint8(3), uint8(96), float32(4), uint64(2))
	f.Add(uint8(17), uint8(97), float32(100), uint64(3))
	f.Add(uint8(2), uint8(7), float32(0.001), uint64(4))
	f.Fuzz(func(t *testing.T, rows, d uint8, scale float32, seed uint64) {
		if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
			scale = 1
		}
		scale = min(float32(math.Abs(float64(scale))), 200)
		r := rand.New(rand.NewPCG(seed, 11))
		c := newGRUCase(r, int(rows%64), int(d), scale)
		if s := accelerated; s != nil {
			compareGRU(t, r, s, c, scale, fmt.Sprintf("rows=%d d=%d scale=%v", c.rows, c.d, scale))
			return
		}
		o := newGRUOut(r, c)
		runGRU(&generic, c, o)
		hNext, act := gruRefForward(c)
		requireClose64(t, "hNext", o.hNext.Data, hNext, 1e-5, 1e-6*max(1, float64(scale)))
		requireClose64(t, "act", o.act.Data, act, 1e-5, 1e-6*max(1, float64(scale)))
		o.requireGuards(t, "generic")
	})
}

//go:build arm64 && !purego

package kernels

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// The NEON tanh/exp/add (vector_arm64.s) on the inputs where their method
// changes: every exponent of both signs, subnormal inputs, tanh's switch at
// 0.625, exp's overflow (ln MaxFloat32 ≈ 88.72), its subnormal results
// (x < −87.34) and its underflow to 0 (x < −103.28), the clamps at −104 and
// 89, and the special values. Errors are measured in ulp against the float64
// reference (the generic twins), each input at every position of a buffer
// that runs through the 8-, 4- and 1-element paths.

// neonVectorInputs is the sweep, NaN excluded.
func neonVectorInputs() []float32 {
	var xs []float32
	for e := -149; e <= 7; e++ {
		for k := 0; k < 64; k++ {
			x := float32(math.Ldexp(1+float64(k)/64, e))
			xs = append(xs, x, -x)
		}
	}
	around := func(c float32, steps int) { // c and steps float32 neighbours each side
		lo, hi := c, c
		xs = append(xs, c)
		for range steps {
			lo, hi = math.Nextafter32(lo, float32(math.Inf(-1))), math.Nextafter32(hi, float32(math.Inf(1)))
			xs = append(xs, lo, hi)
		}
	}
	for _, c := range []float32{0.625, -0.625, 88.72283, 89, -87.33655, -103.27893, -103.97208, -104, 9, -9} {
		around(c, 300)
	}
	for x := float32(-110); x < 95; x += 0.0137 {
		xs = append(xs, x)
	}
	inf := float32(math.Inf(1))
	return append(xs, 0, float32(math.Copysign(0, -1)), inf, -inf, math.MaxFloat32, -math.MaxFloat32,
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32)
}

func TestNEONVectorULP(t *testing.T) {
	s := neonSet(t)
	xs := neonVectorInputs()
	for _, f := range []struct {
		name      string
		neon, ref func(dst, src []float32)
		maxULP    float64
	}{
		{"tanh", s.tanh, tanhGeneric, 2},
		{"exp", s.exp, expGeneric, 2},
	} {
		var worst float64
		var worstX float32
		// Each input at offsets 0..8 of a buffer of odd length: every lane of
		// the 8-element step, the 4-element step and the single-element tail.
		for shift := range 9 {
			src := make([]float32, len(xs)+shift)
			copy(src[shift:], xs)
			got, want := make([]float32, len(src)), make([]float32, len(src))
			f.neon(got, src)
			f.ref(want, src)
			for i, x := range src { // plain ifs: testify costs a microsecond a call
				g, w := got[i], want[i]
				u := ulpDist(g, w)
				if u > worst {
					worst, worstX = u, x
				}
				// Exact where the result is an infinity, a zero or ±1
				// (overflow, underflow, saturation); same sign everywhere.
				exact := math.IsInf(float64(w), 0) || w == 0 || math.Abs(float64(w)) == 1
				if u > f.maxULP || math.Signbit(float64(g)) != math.Signbit(float64(w)) || exact && g != w {
					t.Fatalf("%s(%v) = %v, want %v (%.0f ulp, offset %d)", f.name, x, g, w, u, shift)
				}
			}
		}
		t.Logf("NEON %s: max error %.0f ulp (at x = %v) over %d inputs", f.name, worst, worstX, len(xs))
	}
}

func TestNEONVectorSpecialValues(t *testing.T) {
	s := neonSet(t)
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	negZero := float32(math.Copysign(0, -1))
	// Nine elements: the 8-element step, then the single-element tail.
	for _, at := range []int{0, 5, 8} {
		x := make([]float32, 9)
		x[at] = negZero
		s.tanh(x, x)
		require.True(t, x[at] == 0 && math.Signbit(float64(x[at])), "tanh(−0) = %v at %d", x[at], at)
		for _, c := range []struct{ in, tanh, exp float32 }{
			{inf, 1, inf}, {-inf, -1, 0}, {95, 1, inf}, {-95, -1, float32(math.Exp(-95))},
			{89, 1, inf}, {-104, -1, 0}, {-200, -1, 0}, {0, 0, 1}, {negZero, negZero, 1},
		} {
			x[at] = c.in
			e := make([]float32, 9)
			s.exp(e, x)
			require.Equalf(t, c.exp, e[at], "exp(%v)", c.in)
			s.tanh(x, x)
			require.Equalf(t, math.Float32bits(c.tanh), math.Float32bits(x[at]), "tanh(%v) = %v", c.in, x[at])
		}
		x[at] = nan
		e := make([]float32, 9)
		s.exp(e, x)
		s.tanh(x, x)
		require.True(t, math.IsNaN(float64(x[at])) && math.IsNaN(float64(e[at])), "NaN at %d", at)
		for i := range x {
			if i != at {
				require.False(t, math.IsNaN(float64(x[i])) || math.IsNaN(float64(e[i])), "NaN leaked to %d", i)
			}
		}
	}
}

// TestNEONAdd: bit-identical to the generic twin on every path (16, 4, 1)
// and with infinities, which must add as IEEE says.
func TestNEONAdd(t *testing.T) {
	s := neonSet(t)
	inf := float32(math.Inf(1))
	for n := range 40 {
		for shift := range 3 {
			src := make([]float32, n+shift)[shift:]
			for i := range src {
				src[i] = float32(i)*0.37 - 3.1
			}
			if n > 5 {
				src[5] = inf
			}
			dst := newGuarded(n, shift, nil)
			for i := range dst.Data {
				dst.Data[i] = float32(i)*-1.9 + 0.01
			}
			want := dst.clone()
			s.add(dst.Data, src)
			addGeneric(want.Data, src)
			dst.requireGuards(t, "add")
			for i := range want.Data {
				require.Equalf(t, math.Float32bits(want.Data[i]), math.Float32bits(dst.Data[i]), "n=%d shift=%d [%d]", n, shift, i)
			}
		}
	}
}

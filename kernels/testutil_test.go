package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Shared test helpers for every kernel family.

// oddSizes are the sizes every kernel is tested on: empty, tiny, around
// vector widths and unroll factors, around the model's 96 and 192, and large.
var oddSizes = []int{0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 95, 96, 97, 191, 192, 193}

// largeSize is the "one large" shape.
const largeSize = 1031

// guardWidth NaN cells sit before and after every output buffer.
const guardWidth = 5

// guarded is an output buffer with NaN guard cells on both sides, starting
// at an odd element offset so that the kernel sees an unaligned slice.
type guarded struct {
	all  []float32
	off  int       // where Data starts in all
	Data []float32 // the part the kernel may write
}

// newGuarded makes n usable cells (filled with fill values from r, or NaN
// when r is nil) surrounded by NaN guards, misaligned by `shift` elements.
func newGuarded(n, shift int, r *rand.Rand) guarded {
	all := make([]float32, shift+guardWidth+n+guardWidth)
	nan := float32(math.NaN())
	for i := range all {
		all[i] = nan
	}
	data := all[shift+guardWidth : shift+guardWidth+n : shift+guardWidth+n]
	if r != nil {
		for i := range data {
			data[i] = r.Float32()*2 - 1
		}
	}
	return guarded{all: all, off: shift + guardWidth, Data: data}
}

// clone copies a guarded buffer, guards included.
func (g guarded) clone() guarded {
	all := append([]float32(nil), g.all...)
	n := len(g.Data)
	return guarded{all: all, off: g.off, Data: all[g.off : g.off+n : g.off+n]}
}

// requireGuards asserts the guard cells are still NaN (nothing written outside).
func (g guarded) requireGuards(t testing.TB, what string) {
	t.Helper()
	for i := g.off - guardWidth; i < g.off; i++ {
		require.Truef(t, math.IsNaN(float64(g.all[i])), "%s: guard cell %d before the output was written", what, g.off-i)
	}
	end := g.off + len(g.Data)
	for i := end; i < end+guardWidth; i++ {
		require.Truef(t, math.IsNaN(float64(g.all[i])), "%s: guard cell %d after the output was written", what, i-end+1)
	}
}

// randSlice returns n values in [-scale, scale), misaligned by shift.
func randSlice(r *rand.Rand, n, shift int, scale float32) []float32 {
	all := make([]float32, n+shift)
	for i := range all {
		all[i] = (r.Float32()*2 - 1) * scale
	}
	return all[shift:]
}

// requireClose asserts |got−want| ≤ atol + rtol·|want| elementwise, and that
// got has no NaN where want has none.
func requireClose(t testing.TB, what string, got, want []float32, rtol, atol float64) {
	t.Helper()
	require.Equalf(t, len(want), len(got), "%s: length", what)
	for i := range want {
		g, w := float64(got[i]), float64(want[i])
		if math.IsNaN(w) {
			require.Truef(t, math.IsNaN(g), "%s[%d]: got %v, want NaN", what, i, g)
			continue
		}
		require.Falsef(t, math.IsNaN(g), "%s[%d]: got NaN, want %v", what, i, w)
		if g == w { // also equal infinities
			continue
		}
		require.LessOrEqualf(t, math.Abs(g-w), atol+rtol*math.Abs(w), "%s[%d]: got %v, want %v", what, i, g, w)
	}
}

// underTest is the accelerated set to compare against the generic twins, or
// nil when this build/CPU has none (then only generic-vs-reference runs).
func underTest(t testing.TB) *implementation {
	if accelerated == nil {
		t.Logf("no accelerated kernels in this build (%s); checking the generic twins only", Backend())
	}
	return accelerated
}

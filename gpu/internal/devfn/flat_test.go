//go:build cgo

package devfn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/stretchr/testify/require"
)

// TestGroupFlatIsEnginekits: simdrl_group_flat (loss.cuh) says a group is
// flat exactly where enginekit.Flat (the CPU's count) does, bit for bit as
// float32: on random groups of 2 to 8 returns drawn from a few values (so
// that both answers occur), and on the edge cases: +0 and −0 are equal,
// NaN equals nothing, one ulp apart is not equal.
func TestGroupFlatIsEnginekits(t *testing.T) {
	one := float32(0.375)
	cases := [][]float32{{0, float32(math.Copysign(0, -1))}, {float32(math.NaN()), float32(math.NaN())}, {one, one, math.Nextafter32(one, 1)},
		{one, one, one}, {1, 1, 0, 1}}
	rnd := rand.New(rand.NewPCG(52, 2))
	for range 500 {
		r := make([]float32, 2+rnd.IntN(7))
		for b := range r {
			r[b] = float32(rnd.IntN(2)) * 0.5
		}
		cases = append(cases, r)
	}
	flat := 0
	for _, r := range cases {
		want := enginekit.Flat(r)
		require.Equal(t, want, GroupFlat(r), "%v", r)
		if want {
			flat++
		}
	}
	require.Greater(t, flat, 0, "some groups are flat")
	require.Less(t, flat, len(cases), "some groups are not")
}

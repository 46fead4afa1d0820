package tape

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpenLoopBound: on every pair of digits, a blind policy solves a
// member without a sign-dependent choice always, and one whose single choice
// depends on a comparison of two digits 55 times in 100 (a ≥ b, or a ≤ b:
// the 10 ties go either way); abs of a sum or product is never negative, so
// KEEP is always right there.
func TestOpenLoopBound(t *testing.T) {
	var pairs [][]int32
	for a := int32(0); a < 10; a++ {
		for b := int32(0); b < 10; b++ {
			pairs = append(pairs, []int32{a, b})
		}
	}
	want := map[string]float64{
		"x+x": 1, "abs(x+x)": 1, "x-x": 1, "abs(x-x)": 0.55, "x*x": 1, "abs(x*x)": 1,
		"max(x,x)": 0.55, "abs(max(x,x))": 0.55, "min(x,x)": 0.55, "abs(min(x,x))": 0.55,
	}
	members := ListedBranching(2)
	require.Len(t, members, len(want))
	for i := range members {
		m := &members[i]
		share, ok := OpenLoop(m, pairs)
		require.True(t, ok)
		require.InDeltaf(t, want[m.Spelling], share, 1e-12, "%s", m.Spelling)
	}

	// With a ≥ b on every draw one fixed choice is always right: OTHER (the
	// left argument) for max, KEEP for min and for abs(a−b).
	var ordered [][]int32
	for _, p := range pairs {
		if p[0] >= p[1] {
			ordered = append(ordered, p)
		}
	}
	for i := range members {
		share, _ := OpenLoop(&members[i], ordered)
		require.Equalf(t, 1.0, share, "%s on ordered pairs", members[i].Spelling)
	}
}

// TestOpenLoopBelowTheObservingPolicy: on three leaves, the blind bound is
// never above the observing table's 1, and below it for some member.
func TestOpenLoopBelowTheObservingPolicy(t *testing.T) {
	var draws [][]int32
	for i := int32(0); i < 200; i++ {
		draws = append(draws, []int32{i % 10, i * 7 % 10, i * 3 % 10})
	}
	below := 0
	for i, m := range ListedBranching(3) {
		share, ok := OpenLoop(&m, draws)
		require.True(t, ok)
		require.LessOrEqualf(t, share, 1.0, "member %d %s", i, m.Spelling)
		if share < 1 {
			below++
		}
	}
	require.Positive(t, below)
}

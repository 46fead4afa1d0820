package expr

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// heldCounts is, per size 2..maxLeaves, how many members s holds out.
func heldCounts(s Split, maxLeaves int) []int {
	var out []int
	for n := 2; n <= maxLeaves; n++ {
		h := 0
		for _, b := range s.HeldOut(n, maxLeaves) {
			if b {
				h++
			}
		}
		out = append(out, h)
	}
	return out
}

// TestSplitCounts pins how many members each split holds out per size (the
// rest train), for the default 6 leaves and for 7.
func TestSplitCounts(t *testing.T) {
	require.Equal(t, []int{1, 2, 9, 39, 169}, heldCounts(SplitExpressions, 6))
	require.Equal(t, []int{1, 2, 9, 39, 169, 741}, heldCounts(SplitExpressions, 7))
	require.Equal(t, []int{0, 0, 1, 10, 70}, heldCounts(SplitPattern, 6))
	require.Equal(t, []int{0, 0, 1, 10, 70, 423}, heldCounts(SplitPattern, 7))
	require.Equal(t, []int{0, 0, 0, 0, 843}, heldCounts(SplitLength, 6))
	require.Equal(t, []int{0, 0, 0, 0, 0, 3707}, heldCounts(SplitLength, 7))
	require.Equal(t, []int{0, 0, 45}, heldCounts(SplitLength, 4))
}

// TestSplitsAreDeterministic: the same split twice is the same, whatever
// was asked in between; the expressions split holds out the members whose
// polynomial hashes lowest, at least one of every size with 3 or more.
func TestSplitsAreDeterministic(t *testing.T) {
	for _, s := range []Split{SplitExpressions, SplitPattern, SplitLength} {
		for n := 2; n <= MaxLeaves; n++ {
			first := s.HeldOut(n, MaxLeaves)
			_ = s.HeldOut(MaxLeaves+2-n, MaxLeaves)
			require.Equal(t, first, s.HeldOut(n, MaxLeaves))
			require.Len(t, first, len(Family(n)))
		}
	}
	for n := 2; n <= MaxLeaves; n++ {
		held := SplitExpressions.HeldOut(n, MaxLeaves)
		maxHeld, minTrain := uint64(0), ^uint64(0)
		count := 0
		for i, m := range Family(n) {
			h := fnv1a(m.Poly.String())
			if held[i] {
				maxHeld = max(maxHeld, h)
				count++
			} else {
				minTrain = min(minTrain, h)
			}
		}
		require.Less(t, maxHeld, minTrain, "%d leaves: the lowest hashes are held out", n)
		require.GreaterOrEqual(t, count, 1)
		require.InDelta(t, 0.2*float64(len(held)), float64(count), 0.5)
	}
	// The pattern split holds out exactly the members whose representative
	// has the pattern.
	for i, m := range Family(5) {
		require.Equal(t, m.Tree.HasPattern(), SplitPattern.HeldOut(5, 6)[i], m.Spelling)
	}
}

func TestParseSplit(t *testing.T) {
	for _, s := range []Split{SplitExpressions, SplitPattern, SplitLength} {
		got, err := ParseSplit(s.String())
		require.NoError(t, err)
		require.Equal(t, s, got)
	}
	_, err := ParseSplit("tuples")
	require.ErrorContains(t, err, `"tuples" is not expressions, pattern or length`)
	require.Equal(t, "Split(7)", Split(7).String())
	require.Equal(t, 0, heldOutCount(2))
	require.Equal(t, 1, heldOutCount(3))
}

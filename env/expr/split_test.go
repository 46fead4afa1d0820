package expr

import (
	"slices"
	"testing"

	"github.com/simdrl/simdrl/env/internal/holdout"
	"github.com/stretchr/testify/require"
)

// partCounts is, per size 2..maxLeaves, how many members s puts in part.
func partCounts(s Split, part Part, maxLeaves int) []int {
	var out []int
	for n := 2; n <= maxLeaves; n++ {
		c := 0
		for _, p := range s.Parts(n, maxLeaves) {
			if p == part {
				c++
			}
		}
		out = append(out, c)
	}
	return out
}

// TestSplitCounts pins how many members each split holds out and transfers
// per size (the rest train), for the default 6 leaves and for 7.
func TestSplitCounts(t *testing.T) {
	held := func(s Split, maxLeaves int) []int { return partCounts(s, PartHeldOut, maxLeaves) }
	transfer := func(s Split, maxLeaves int) []int { return partCounts(s, PartTransfer, maxLeaves) }
	require.Equal(t, []int{1, 2, 9, 39, 169}, held(SplitExpressions, 6))
	require.Equal(t, []int{1, 2, 9, 39, 169, 741}, held(SplitExpressions, 7))
	require.Equal(t, []int{0, 0, 0, 0, 0}, transfer(SplitExpressions, 6))
	require.Equal(t, []int{0, 0, 1, 10, 70}, transfer(SplitPattern, 6))
	require.Equal(t, []int{0, 0, 1, 10, 70, 423}, transfer(SplitPattern, 7))
	require.Equal(t, []int{1, 2, 9, 37, 155}, held(SplitPattern, 6), "a fifth of the rest")
	require.Equal(t, []int{0, 0, 0, 0, 843}, transfer(SplitLength, 6))
	require.Equal(t, []int{1, 2, 9, 39, 0}, held(SplitLength, 6))
	require.Equal(t, []int{0, 0, 0, 0, 0, 3707}, transfer(SplitLength, 7))
	require.Equal(t, []int{0, 0, 45}, transfer(SplitLength, 4))
}

// TestSplitsAreDeterministic: the same split twice is the same, whatever
// was asked in between; the expressions split holds out the members whose
// polynomial hashes lowest, at least one of every size with 3 or more.
func TestSplitsAreDeterministic(t *testing.T) {
	for _, s := range []Split{SplitExpressions, SplitPattern, SplitLength} {
		for n := 2; n <= MaxLeaves; n++ {
			first := s.Parts(n, MaxLeaves)
			_ = s.Parts(MaxLeaves+2-n, MaxLeaves)
			require.Equal(t, first, s.Parts(n, MaxLeaves))
			require.Len(t, first, len(Family(n)))
		}
	}
	for n := 2; n <= MaxLeaves; n++ {
		parts := SplitExpressions.Parts(n, MaxLeaves)
		maxHeld, minTrain := uint64(0), ^uint64(0)
		count := 0
		for i, m := range Family(n) {
			h := holdout.Hash(m.Poly.String())
			if parts[i] == PartHeldOut {
				maxHeld = max(maxHeld, h)
				count++
			} else {
				minTrain = min(minTrain, h)
			}
		}
		require.Less(t, maxHeld, minTrain, "%d leaves: the lowest hashes are held out", n)
		require.GreaterOrEqual(t, count, 1)
		require.InDelta(t, 0.2*float64(len(parts)), float64(count), 0.5)
	}
	// The pattern split transfers exactly the members whose representative
	// has the pattern.
	for i, m := range Family(5) {
		require.Equal(t, m.Tree.HasPattern(), SplitPattern.Parts(5, 6)[i] == PartTransfer, m.Spelling)
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
	require.Equal(t, 0, holdout.Count(2))
	require.Equal(t, 1, holdout.Count(3))
}

// The held-out members are the shared rule's (holdout.Lowest) of the
// polynomials of the members outside the transfer part, as the tape
// family's are of its spellings.
func TestSplitsHoldOutBySharedRule(t *testing.T) {
	for _, s := range []Split{SplitExpressions, SplitPattern, SplitLength} {
		for n := 3; n <= MaxLeaves; n++ {
			var rest []int
			var keys []string
			var held []int
			for i, p := range s.Parts(n, MaxLeaves) {
				if p != PartTransfer {
					rest = append(rest, i)
					keys = append(keys, Family(n)[i].Poly.String())
				}
				if p == PartHeldOut {
					held = append(held, i)
				}
			}
			var want []int
			for _, j := range holdout.Lowest(keys) {
				want = append(want, rest[j])
			}
			slices.Sort(want)
			require.Equal(t, want, held, "%v, %d leaves", s, n)
		}
	}
}

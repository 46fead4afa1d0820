package game24

import (
	"testing"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/stretchr/testify/require"
)

// The brute-force solver finds the known count of solvable multisets:
// 1,362 of the 1,820.
func TestSolvableCount(t *testing.T) {
	require.Len(t, Hands(), 1820) // C(16, 4)
	s := NewSplit()
	require.Equal(t, 1362, len(s.Training)+len(s.HeldOut))
}

// Hand cases: solvable and not, with fractions needed or not.
func TestHands(t *testing.T) {
	for _, c := range []struct {
		h                   Hand
		solvable, fractions bool
	}{
		{Hand{1, 1, 1, 1}, false, false},
		{Hand{1, 1, 1, 8}, true, false}, // (1+1+1)·8
		{Hand{6, 6, 6, 6}, true, false}, // 6+6+6+6
		{Hand{1, 5, 5, 5}, true, true},  // (5 − 1/5)·5
		{Hand{3, 3, 8, 8}, true, true},  // 8 / (3 − 8/3)
		{Hand{1, 3, 4, 6}, true, true},  // 6 / (1 − 3/4)
		{Hand{13, 13, 13, 13}, false, false},
	} {
		require.Equal(t, c.solvable, c.h.Solvable(), "%v", c.h)
		if c.solvable {
			require.Equal(t, c.fractions, c.h.NeedsFractions(), "%v", c.h)
		}
	}
	require.True(t, Hand{6, 6, 6, 6}.Solvable() && !Hand{6, 6, 6, 6}.NeedsMulDiv())
	require.True(t, Hand{1, 1, 1, 8}.NeedsMulDiv())
}

// The split is disjoint, a fifth held out, each part sorted, and the same
// every time.
func TestSplit(t *testing.T) {
	s := NewSplit()
	require.Equal(t, (1362+2)/5, len(s.HeldOut))
	for _, h := range s.HeldOut {
		require.False(t, Contains(s.Training, h), "%v in both", h)
		require.True(t, Contains(s.HeldOut, h))
	}
	require.Equal(t, s, NewSplit())
	var p countdown.Pool
	s.HeldOut[0].Pool(&p)
	require.Equal(t, 4, p.Left())
}

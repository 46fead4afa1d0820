package task

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestIsHeldOutHoldsOutAFifth: over many items about one in HeldOutOf is
// held out (within five standard deviations of the binomial), the split is
// a pure function of salt and item, and another salt splits otherwise.
func TestIsHeldOutHoldsOutAFifth(t *testing.T) {
	const n = 100_000
	p := 1.0 / HeldOutOf
	sd := math.Sqrt(n * p * (1 - p))
	for _, salt := range []uint64{0, 1, 0xcbf29ce484222325} {
		held := 0
		for i := range uint64(n) {
			if IsHeldOut(salt, i) {
				held++
			}
			require.Equal(t, IsHeldOut(salt, i), IsHeldOut(salt, i))
		}
		require.InDelta(t, n*p, float64(held), 5*sd, "salt %#x", salt)
	}
	differ := 0
	for i := range uint64(1000) {
		if IsHeldOut(1, i) != IsHeldOut(2, i) {
			differ++
		}
	}
	require.Positive(t, differ, "the salt changes the split")
}

package holdout

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/stretchr/testify/require"
)

// Count holds out nothing of a size too small to keep two members to
// train on, one at least once it can, and a fifth, rounded, after.
func TestCount(t *testing.T) {
	require.Zero(t, Count(0))
	require.Zero(t, Count(2))
	for m := 3; m <= 100; m++ {
		c := Count(m)
		require.GreaterOrEqual(t, c, 1, m)
		require.GreaterOrEqual(t, m-c, 2, m)
		require.InDelta(t, float64(m)/5, float64(c), 0.5, m)
	}
}

// Lowest holds out Count of the keys, those whose hashes are lowest, in
// hash order, the same every time; equal keys go by index.
func TestLowest(t *testing.T) {
	for _, m := range []int{0, 2, 3, 7, 40} {
		keys := make([]string, m)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%d", i)
		}
		held := Lowest(keys)
		require.Len(t, held, Count(m))
		require.Equal(t, held, Lowest(keys))
		isHeld := map[int]bool{}
		for j, i := range held {
			isHeld[i] = true
			if j > 0 {
				require.Less(t, Hash(keys[held[j-1]]), Hash(keys[i]))
			}
		}
		for i := range keys {
			for _, h := range held {
				if !isHeld[i] {
					require.Less(t, Hash(keys[h]), Hash(keys[i]))
				}
			}
		}
	}
	require.Equal(t, []int{0}, Lowest([]string{"a", "a", "a"}))
}

// Hash is 64-bit FNV-1a, as hash/fnv computes it.
func TestHash(t *testing.T) {
	for _, s := range []string{"", "a", "x+(x*x)", "a*b+c*d"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		require.Equal(t, h.Sum64(), Hash(s), s)
	}
}

package countdowntask

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The baselines are reproducible by their seed, the random players'
// change with it and the DFS's do not; a larger budget never solves less
// by DFS, and the DFS beats random moves; the no-revisit rule helps the DFS.
func TestBaselines(t *testing.T) {
	a, err := Baselines("countdown3", "revisit=on", []int{16, 64}, 1)
	require.NoError(t, err)
	b, err := Baselines("countdown3", "revisit=on", []int{16, 64}, 1)
	require.NoError(t, err)
	require.Equal(t, a, b)
	c, err := Baselines("countdown3", "revisit=on", []int{16, 64}, 2)
	require.NoError(t, err)
	require.Equal(t, a[1].DFS, c[1].DFS)
	require.NotEqual(t, a[1].Random, c[1].Random)
	require.LessOrEqual(t, a[0].DFS, a[1].DFS)
	require.Greater(t, a[1].DFS, a[1].Random)
	require.Greater(t, a[0].Pass16, a[0].Pass1)
	require.Equal(t, ListedCountdown, a[0].Instances)
	require.LessOrEqual(t, a[1].BruteMed, a[1].BruteMax)
	require.Equal(t, a[1].DFS == 1, a[1].BruteMax <= 64, "the DFS solves all in a budget iff the brute force's most steps fit")
	// Under the no-revisit rule the DFS skips transpositions: never fewer
	// solved in a budget, never more steps to its first solution; random
	// programs never undo, so they are the same.
	d, err := Baselines("countdown3", "revisit=off", []int{16, 64}, 1)
	require.NoError(t, err)
	for i := range d {
		require.GreaterOrEqual(t, d[i].DFS, a[i].DFS)
		require.Equal(t, a[i].Pass1, d[i].Pass1)
	}
	require.Greater(t, d[0].DFS, a[0].DFS)
	require.Less(t, d[0].BruteMax, a[0].BruteMax)
	_, err = Baselines("calc", "", nil, 1)
	require.Error(t, err)
}

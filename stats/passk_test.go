package stats

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// binomial is C(n, k) in float64, by its definition.
func binomial(n, k int) float64 {
	if k < 0 || k > n {
		return 0
	}
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// PassAtK against hand values and against 1 − C(n−c,k)/C(n,k) itself.
func TestPassAtK(t *testing.T) {
	for _, c := range []struct {
		n, c, k int
		want    float64
	}{
		{1, 0, 1, 0}, {1, 1, 1, 1},
		{10, 3, 1, 0.3},                // pass@1 is c/n
		{4, 1, 2, 0.5},                 // 1 − C(3,2)/C(4,2) = 1 − 3/6
		{5, 2, 2, 0.7},                 // 1 − C(3,2)/C(5,2) = 1 − 3/10
		{5, 2, 4, 1},                   // n − c < k: every draw of 4 holds a correct one
		{16, 0, 16, 0}, {16, 1, 16, 1}, // k = n: any correct
		{20, 5, 3, 1 - 455.0/1140}, // C(15,3)=455, C(20,3)=1140
	} {
		require.InDeltaf(t, c.want, PassAtK(c.n, c.c, c.k), 1e-12, "n=%d c=%d k=%d", c.n, c.c, c.k)
	}
	for n := 1; n <= 30; n++ {
		for cc := 0; cc <= n; cc++ {
			for k := 1; k <= n; k++ {
				want := 1 - binomial(n-cc, k)/binomial(n, k)
				require.InDeltaf(t, want, PassAtK(n, cc, k), 1e-9, "n=%d c=%d k=%d", n, cc, k)
			}
		}
	}
	for _, bad := range [][3]int{{3, 1, 0}, {3, 1, 4}, {3, -1, 1}, {3, 4, 1}} {
		require.True(t, math.IsNaN(PassAtK(bad[0], bad[1], bad[2])), "%v", bad)
	}
}

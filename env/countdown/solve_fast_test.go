package countdown

import (
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// The compact search agrees with the pool's on the candidates Draw tries
// (Countdown's ranges, 3 and 4 numbers), solvable and not, with and
// without × and ÷.
func TestSolvableNumbersOnDraws(t *testing.T) {
	key := rng.NewKey(7)
	var yes, no int
	for e := uint32(0); e < 1500; e++ {
		n := 3 + int(e%2)
		w, tg := key.Block(0, e, 0, rng.PurposeTask), key.Block(0, e, 1, rng.PurposeTask)
		nums := make([]int64, n)
		for k := range n {
			nums[k] = MinNumber + int64(rng.Below(w[k], MaxNumber-MinNumber+1))
		}
		target := MinTarget + int64(rng.Below(tg[0], MaxTarget-MinTarget+1))
		for _, r := range []Restrict{{}, {NoMulDiv: true}} {
			var p Pool
			p.Reset(Integers, nums, Int(target))
			want := Solvable(&p, r)
			require.Equal(t, want, SolvableNumbers(Integers, nums, target, r), "%v → %d %+v", nums, target, r)
			if want {
				yes++
			} else {
				no++
			}
		}
	}
	require.Greater(t, yes, 100)
	require.Greater(t, no, 100)
}

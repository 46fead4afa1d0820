package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSubsets(t *testing.T) {
	cases := []struct {
		expr   string
		digits []int32
		want   uint32
	}{
		{"abs(a-b)", []int32{3, 3}, SubsetTie},
		{"abs(a-b)", []int32{3, 5}, SubsetNegative},
		{"abs(a-b)", []int32{5, 3}, 0},
		{"abs(a-b)", []int32{0, 0}, SubsetTie | SubsetZero},
		{"max(a,b)+c", []int32{4, 4, 1}, SubsetTie},
		{"max(a,b)+c", []int32{4, 5, 0}, SubsetZero},
		{"max(a*b,c*d)", []int32{2, 3, 1, 6}, SubsetTie},
		{"max(a*b-c,d)", []int32{1, 1, 5, 2}, SubsetNegative},
		{"a-b", []int32{1, 5}, 0}, // the root is no inner value
		{"(a-b)*c", []int32{1, 5, 2}, SubsetNegative},
	}
	for _, c := range cases {
		var d [MaxVars]int32
		copy(d[:], c.digits)
		require.Equal(t, c.want, mustExpr(t, c.expr).Subsets(&d), "%s on %v", c.expr, c.digits)
	}
	require.Equal(t, []string{"tie", "zero", "negative"}, SubsetNames)
	e := mustExpr(t, "abs(a*b-c*d)")
	var d [MaxVars]int32
	require.Zero(t, testing.AllocsPerRun(100, func() { _ = e.Subsets(&d) }))
}

// Instances lists a split in full, in tuple order, and the two splits
// partition the level's tuples.
func TestInstancesEnumerate(t *testing.T) {
	ls := observeLevels(t)
	lv := 2 // abs(a-b)*c
	held := ls.Instances(lv, true, 0)
	train := ls.Instances(lv, false, 0)
	require.Equal(t, 1000, len(held)+len(train))
	require.InDelta(t, 200, len(held), 40)
	seen := map[[MaxVars]int32]bool{}
	prev := -1
	for _, in := range held {
		require.True(t, ls[lv].IsHeldOut(&in.Digits))
		idx := int(tupleIndex(&in.Digits, in.Vars))
		require.Greater(t, idx, prev, "in tuple order")
		prev = idx
		require.Equal(t, ls[lv].Expr.Eval(&in.Digits), in.Target)
		seen[in.Digits] = true
	}
	for _, in := range train {
		require.False(t, ls[lv].IsHeldOut(&in.Digits))
		require.False(t, seen[in.Digits])
	}
	require.Len(t, ls.Instances(lv, true, 7), 7)
	require.Equal(t, held[:7], ls.Instances(lv, true, 7))
}

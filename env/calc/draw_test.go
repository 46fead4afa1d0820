package calc

import (
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// The held-out part is 20 % ± 2 % of each level's tuples (all of them for up
// to 5 variables, every tuple of a 10^6 space for the last default level).
func TestSplitShare(t *testing.T) {
	ls := DefaultLevels()
	for i := range ls {
		if ls[i].Vars() < 4 {
			continue // 100 or 1000 tuples: too few for ±2 %
		}
		space := tupleSpace(ls[i].Expr.vars)
		held := 0
		for idx := uint64(0); idx < space; idx++ {
			if isHeldOut(ls[i].salt, idx) {
				held++
			}
		}
		share := float64(held) / float64(space)
		t.Logf("%s: %d of %d held out (%.4f)", ls[i].Expr, held, space, share)
		require.InDelta(t, 0.2, share, 0.02)
	}
	// Different expressions split differently.
	a, b := ls[3].salt, ls[4].salt
	same := 0
	for idx := uint64(0); idx < 10000; idx++ {
		if isHeldOut(a, idx) == isHeldOut(b, idx) {
			same++
		}
	}
	require.Less(t, same, 7500, "independent 80/20 splits agree on about 68 %")
}

func TestDrawRespectsTheSplit(t *testing.T) {
	ls := DefaultLevels()
	key := rng.NewKey(3)
	for lv := range ls {
		heldSeen := 0
		for ep := uint32(0); ep < 4000; ep++ {
			train := ls.Draw(key, 7, ep, rng.PurposeTask, lv, false)
			require.False(t, ls[lv].IsHeldOut(&train.Digits), "training draw %v is held out", train.Digits)
			eval := ls.Draw(key, 7, ep, rng.PurposeEval, lv, true)
			require.True(t, ls[lv].IsHeldOut(&eval.Digits), "evaluation draw %v is not held out", eval.Digits)
			for _, in := range []Instance{train, eval} {
				require.Equal(t, int32(lv), in.Level)
				require.Equal(t, int32(ls[lv].Vars()), in.Vars)
				require.Equal(t, int32(ls[lv].Budget), in.Budget)
				for k, d := range in.Digits {
					if k < int(in.Vars) {
						require.True(t, d >= 0 && d <= 9)
					} else {
						require.Zero(t, d)
					}
				}
				require.Equal(t, ls[lv].Expr.Eval(&in.Digits), in.Target)
			}
			if ls[lv].IsHeldOut(&train.Digits) {
				heldSeen++
			}
		}
		require.Zero(t, heldSeen)
	}
}

func TestDrawIsAPureFunction(t *testing.T) {
	ls := DefaultLevels()
	k := rng.NewKey(5)
	a := ls.Draw(k, 1, 2, rng.PurposeTask, 5, false)
	require.Equal(t, a, ls.Draw(k, 1, 2, rng.PurposeTask, 5, false))
	differ := 0
	for ep := uint32(3); ep < 13; ep++ {
		if ls.Draw(k, 1, ep, rng.PurposeTask, 5, false).Digits != a.Digits {
			differ++
		}
	}
	require.GreaterOrEqual(t, differ, 9)
	require.NotEqual(t, a.Digits, ls.Draw(rng.NewKey(6), 1, 2, rng.PurposeTask, 5, false).Digits)
	require.NotEqual(t, a.Digits, ls.Draw(k, 2, 2, rng.PurposeTask, 5, false).Digits)
}

// Training draws cover the training part about evenly: on a·b (100 tuples)
// every training tuple appears, and none more than twice as often as the mean.
func TestDrawCoversTheTrainingPart(t *testing.T) {
	ls := DefaultLevels()
	train, _ := ls[0].splitCounts()
	counts := map[[MaxVars]int32]int{}
	const n = 40000
	for ep := uint32(0); ep < n; ep++ {
		counts[ls.Draw(rng.NewKey(1), 0, ep, rng.PurposeTask, 0, false).Digits]++
	}
	require.Len(t, counts, int(train))
	mean := float64(n) / float64(train)
	for d, c := range counts {
		require.InDelta(t, mean, float64(c), mean*0.25, "%v", d)
	}
}

func TestDrawAllocatesNothing(t *testing.T) {
	ls := DefaultLevels()
	k := rng.NewKey(1)
	ep := uint32(0)
	require.Zero(t, testing.AllocsPerRun(1000, func() {
		ls.Draw(k, 0, ep, rng.PurposeEval, 5, true)
		ep++
	}))
}

func TestInstanceContext(t *testing.T) {
	ls := DefaultLevels()
	in := ls.Instance(2, [MaxVars]int32{3, 4, 5, 6, 7})
	buf := make([]int32, 8)
	require.Equal(t, 5, in.Context(buf))
	require.Equal(t, []int32{3, 4, 5, 6, CTX}, buf[:5])
	require.Equal(t, int64(3*4+5-6), in.Target)
	require.Equal(t, []int64{12, 17}, in.Inner[:in.NInner])
	require.Zero(t, in.Digits[4], "digits beyond the level's are not kept")
}

// When rejection runs out of tries, Draw walks to the next tuple of the part.
// On a split of "a" that holds out a single tuple of 10, an evaluation draw
// exhausts its 64 tries with probability 0.9^64 ≈ 0.12 %, about 24 times in
// 20 000 draws; every draw must still be that tuple.
func TestDrawFallsBackToTheOnlyTuple(t *testing.T) {
	ls := Levels{{Expr: mustExpr(t, "a"), Budget: 3}}
	for ls[0].salt = 0; ; ls[0].salt++ {
		if _, held := ls[0].splitCounts(); held == 1 {
			break
		}
	}
	var only [MaxVars]int32
	for idx := uint64(0); idx < 10; idx++ {
		if isHeldOut(ls[0].salt, idx) {
			tupleDigits(idx, 1, &only)
		}
	}
	for ep := uint32(0); ep < 20000; ep++ {
		require.Equal(t, only, ls.Draw(rng.NewKey(2), 0, ep, rng.PurposeEval, 0, true).Digits)
		require.NotEqual(t, only, ls.Draw(rng.NewKey(2), 0, ep, rng.PurposeTask, 0, false).Digits)
	}
}

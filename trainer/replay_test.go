package trainer

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

func newItemCalc(t *testing.T, verified func(in *task.Instance, program []int32) bool) tasktest.ItemCalc {
	c, err := tasktest.NewItemCalc("levels=a*b, a+b", verified)
	require.NoError(t, err)
	return c
}

func episode(level, item int, correct bool, reward float64, program ...int32) task.Episode {
	p := make([]int32, 5)
	copy(p, program)
	return task.Episode{Instance: task.Instance{Level: int32(level), Item: int32(item)}, Program: p, Reward: reward, Correct: correct}
}

func TestReplayBufferKeepsTheBestVerifiedProgram(t *testing.T) {
	refuse := map[int32]bool{calc.ADD: true} // "verified" programs: those without ADD
	var verifiedCalls int
	it := newItemCalc(t, func(_ *task.Instance, p []int32) bool {
		verifiedCalls++
		for _, a := range p {
			if refuse[a] {
				return false
			}
		}
		return true
	})
	b := newReplayBuffer(it, 5, 4)
	b.observe([]task.Episode{
		episode(0, 1, false, 0, calc.LOAD, calc.MUL, calc.ANS),                    // wrong: ignored
		episode(0, 2, true, 1, calc.LOAD, calc.ADD, calc.ANS),                     // right by chance only: Verify refuses it
		episode(0, 0, true, 1, calc.LOAD, calc.MUL, calc.STO, calc.ANS),           // kept
		episode(0, 0, true, 1, calc.LOAD, calc.STO, calc.MUL, calc.STO, calc.ANS), // as good but longer: not even verified
	})
	require.Len(t, b.order, 1)
	e := b.best[0][0]
	require.Equal(t, []int32{calc.LOAD, calc.MUL, calc.STO, calc.ANS, calc.ANS}, e.Program, "padded with the answer")
	require.Equal(t, 4, e.Length)
	require.Equal(t, 2, verifiedCalls)
	require.Nil(t, b.best[0][2])

	b.observe([]task.Episode{episode(0, 0, true, 1, calc.LOAD, calc.MUL, calc.ANS)}) // shorter: replaces
	require.Equal(t, 3, b.best[0][0].Length)
	b.observe([]task.Episode{episode(0, 0, true, 1.3, calc.LOAD, calc.MUL, calc.STO, calc.ANS)}) // more reward: replaces
	require.Equal(t, 1.3, b.best[0][0].Reward)
	require.Equal(t, 4, b.best[0][0].Length)
	require.Len(t, b.order, 1, "one entry per item")
	b.observe([]task.Episode{episode(1, 2, true, 1, calc.LOAD, calc.MUL, calc.ANS), episode(7, 0, true, 1, calc.ANS), episode(1, 3, true, 1, calc.ANS)})
	require.Len(t, b.order, 2, "items outside the task's are ignored")
}

func TestReplayDrawIsAPureFunctionOfTheBuffer(t *testing.T) {
	it := newItemCalc(t, func(*task.Instance, []int32) bool { return true })
	fill := func() *replayBuffer {
		b := newReplayBuffer(it, 5, 6)
		b.observe([]task.Episode{episode(0, 1, true, 1, calc.LOAD, calc.MUL, calc.ANS), episode(1, 2, true, 1, calc.LOAD, calc.ADD, calc.ANS)})
		return b
	}
	key := rng.NewKey(3)
	require.Nil(t, newReplayBuffer(it, 5, 6).draw(key, 1), "nothing to replay yet")
	a, b := fill(), fill()
	ra := append([]task.Episode(nil), a.draw(key, 9)...)
	rb := b.draw(key, 9)
	require.Len(t, ra, 6)
	levels := map[int32]bool{}
	for i := range ra {
		require.Equal(t, ra[i].Instance, rb[i].Instance)
		require.Equal(t, ra[i].Program, rb[i].Program)
		e := a.best[ra[i].Instance.Level][ra[i].Instance.Item]
		require.NotNil(t, e, "a replay is of a remembered item")
		require.Equal(t, e.Program, ra[i].Program)
		levels[ra[i].Instance.Level] = true
	}
	require.Len(t, levels, 2, "both entries are drawn in 6 replays (seed 3, update 9)")
	require.NotEqual(t, ra[0].Instance, a.draw(key, 10)[0].Instance, "another update draws other operands")
}

func TestItemFocusWeighsFailures(t *testing.T) {
	it := newItemCalc(t, nil)
	f := newItemFocus(it)
	require.InDeltaSlice(t, []float64{1. / 3, 2. / 3, 1}, f.cdf[0], 1e-12, "unseen items weigh the same")
	f.observe([]task.Episode{episode(0, 0, true, 1), episode(0, 0, true, 1), episode(0, 2, false, 0)})
	// item 0: 1 → 0.5 → 0.25; items 1 and 2 stay at 1.
	w := []float64{0.35, 1.1, 1.1}
	sum := w[0] + w[1] + w[2]
	require.InDeltaSlice(t, []float64{w[0] / sum, (w[0] + w[1]) / sum, 1}, f.cdf[0], 1e-12)
	require.InDeltaSlice(t, []float64{1. / 3, 2. / 3, 1}, f.cdf[1], 1e-12, "another level is untouched")
}

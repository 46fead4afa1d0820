package countdowntask

import (
	"testing"

	"github.com/simdrl/simdrl/env/countdown"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// The 24 Game's hands are its items (items.go): game24 is Itemized and the
// Countdown tasks are not; an item is the hand listed at its index; Draw
// names the item it drew; Verify plays a program from the hand's pool.
func TestGame24HandsAreItems(t *testing.T) {
	for _, name := range []string{"countdown3", "countdown4"} {
		tk, err := task.Open(name, "")
		require.NoError(t, err)
		_, itemized := tk.(task.Itemized)
		require.False(t, itemized, name)
	}
	tk, err := task.Open("game24", "")
	require.NoError(t, err)
	it, ok := tk.(task.Itemized)
	require.True(t, ok, "game24 is Itemized")
	require.NoError(t, task.Validate(tk))
	en := tk.(task.Enumerator)
	key := rng.NewKey(7)
	for _, sp := range []task.Split{task.Training, task.HeldOut} {
		listed := en.Instances(0, sp, 0)
		require.Equal(t, len(listed), it.Items(0, sp), "%s", sp)
		for i, in := range listed {
			got := it.DrawItem(key, 3, uint32(i), rng.PurposeTask, 0, sp, i)
			require.Equal(t, in, got, "%s item %d is its listed hand", sp, i)
			require.EqualValues(t, i, got.Item)
		}
		for e := range uint32(200) {
			in := tk.Draw(key, 1, e, rng.PurposeTask, 0, sp)
			require.Equal(t, listed[in.Item], in, "%s: Draw's instance is the hand of the item it names", sp)
		}
	}
	require.Zero(t, it.Items(0, task.Transfer))
	require.Zero(t, it.Items(1, task.Training))
	require.Equal(t, task.Instance{}, it.DrawItem(key, 0, 0, rng.PurposeTask, 0, task.Training, it.Items(0, task.Training)), "no such item")

	// 1 1 1 8: (1+1+1)·8 solves it; (1+1)·8 then UNDO does not.
	tok := func(i, j int8, op countdown.Op) int32 { return countdown.Token(4, countdown.Move{I: i, J: j, Op: op}) }
	in := instance([]int64{1, 1, 1, 8}, 24, 256)
	require.True(t, it.Verify(&in, []int32{tok(0, 1, countdown.Add), tok(0, 2, countdown.Add), tok(0, 3, countdown.Mul)}))
	require.False(t, it.Verify(&in, []int32{tok(0, 1, countdown.Add), tok(0, 3, countdown.Mul), countdown.Undo(4)}))
}

package countdowntask

import (
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// The hot loop allocates nothing: drawing an instance (Countdown's
// rejection sampling included), resetting and stepping a game (THINK
// included; the no-revisit rule once its set is made), its mask.
func TestNoAllocations(t *testing.T) {
	key := rng.NewKey(4)
	for _, c := range [][2]string{{"countdown3", ""}, {"countdown4", ""}, {"game24", ""}, {"game24", "think=4"}, {"countdown4", "revisit=on"}, {"countdown3", "revisit=off"}} {
		name, tk := c[0], opened(t, c[0], c[1])
		g := tk.NewGame().(*Game)
		legal := make([]bool, tk.Vocab())
		in := tk.Draw(key, 0, 0, rng.PurposeTask, 0, task.Training)
		e := uint32(0)
		allocs := testing.AllocsPerRun(50, func() {
			e++
			in = tk.Draw(key, 0, e, rng.PurposeTask, 0, task.Split(e%2))
			g.Reset(&in)
			for k := range int32(tk.Vocab()) {
				g.Legal(legal)
				g.Step(k)
			}
		})
		require.Zero(t, allocs, name)
	}
}

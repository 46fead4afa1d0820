package cpu

import (
	"bytes"
	"testing"

	"github.com/simdrl/simdrl/internal/testsize"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestCalcBranchingLevelsLearn trains the default recipe on two levels no
// fixed program solves, abs(a-b)*c and max(a,b)+c (the best fixed program
// is right on 0.595 and 0.550 of their tuples), and requires every held-out
// tuple's greedy answer, every subset included (ties, zeros, negatives),
// at ≥ 0.99, with the run stopped by the stop rule; under -short (also
// run under the race detector) abs(a-b) alone. Then the same levels
// without observations must stay below 0.9: what was learned came through
// them.
func TestCalcBranchingLevelsLearn(t *testing.T) {
	levels := "abs(a-b)*c, max(a,b)+c"
	if !testsize.Long() { // the second level takes minutes to learn
		levels = "abs(a-b)"
	}
	for _, observe := range []string{"", "; observe=off"} {
		c := trainer.DefaultRecipe()
		c.Task, c.TaskSpec = "calc", "levels="+levels+observe
		c, err := trainer.WithTask(c)
		require.NoError(t, err)
		c.Seed, c.Updates, c.FinalEpisodes, c.Explain, c.Threads = 0, 1500, 200, 1, 2
		if observe != "" {
			c.Updates = 400
			if testing.Short() {
				c.Updates = 100 // under qemu (CI's NEON step) every update counts
			}
		}
		var out bytes.Buffer
		rep, err := run(t, c, &out)
		require.NoError(t, err)
		require.Len(t, rep.Exhaustive, len(rep.Levels))
		for _, l := range rep.Exhaustive {
			require.True(t, l.Listed, l.Level)
			t.Logf("%s%s: %d updates, held-out %d/%d, subsets %+v", l.Level, observe, rep.Updates, l.HeldOut.Solved, l.HeldOut.N, l.Subsets)
			if observe != "" {
				require.Less(t, l.HeldOut.Rate(), 0.9, "%s learned without observations:\n%s", l.Level, out.String())
				continue
			}
			require.GreaterOrEqualf(t, l.HeldOut.Rate(), 0.99, "%s not learned:\n%s", l.Level, out.String())
			for _, s := range l.Subsets {
				if s.N > 0 {
					require.GreaterOrEqualf(t, s.Rate(), 0.99, "%s's %s subset:\n%s", l.Level, s.Name, out.String())
				}
			}
		}
		if observe == "" {
			require.Less(t, rep.Updates, c.Updates, "the stop rule never fired:\n%s", out.String())
		}
	}
}

package tape

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// The length split tests length: every observation the shunting-yard
// program meets on the longer sizes is met on the training members of the
// trained sizes. The policy's input adds an embedding of the observation
// to the last tool's, and an observation never met in training keeps the
// random embedding it started with. The branching observation's
// comparison sign, once shown away from the ")" it decides, broke this: a
// "(" opening max's second argument with two values below it first occurs
// at 6 leaves, and the seeds whose untrained response to it was wrong
// stalled there (docs/results.md).
func TestTrainedSizesMeetEveryObservation(t *testing.T) {
	for _, branching := range []bool{false, true} {
		v := Variant{Branching: branching}
		policy := ShuntingYard
		if branching {
			policy = ShuntingYardBranching
		}
		r := &splitMix{state: 38}
		observations := func(n int, trained bool, seen map[int32]int) {
			members, err := FamilyOf(n, branching)
			require.NoError(t, err)
			parts := Parts(members, trained)
			for i := range members {
				if parts[i] == PartHeldOut {
					continue
				}
				m := &members[i]
				for range 4 {
					d := make([]int32, m.Leaves)
					for k := range d {
						d[k] = int32(r.below(10))
					}
					var cells [MaxCells]Cell
					var mc Machine
					mc.Variant = v
					mc.Reset(m.Tape(d, cells[:]))
					for !mc.Answered {
						obs := mc.Observe()
						seen[obs]++
						tool := policy(obs)
						require.True(t, mc.Step(tool), "%s on %s", ToolName(tool), m.Spelling)
					}
				}
			}
		}
		trained := map[int32]int{}
		for n := 2; n <= 5; n++ {
			observations(n, true, trained)
		}
		for _, n := range []int{6, 8, 12, 16, 32} {
			longer := map[int32]int{}
			observations(n, false, longer)
			for obs, count := range longer {
				require.Contains(t, trained, obs, "branching %v, %d leaves: %s (%d times) is never met on 2–5 leaves",
					branching, n, v.ObservationName(obs), count)
			}
		}
	}
}

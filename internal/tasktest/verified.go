package tasktest

import (
	"slices"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// VerifiedProgram is a shortest program (ANS-terminated, at most maxLen
// tokens) of t's actions that t.Verify accepts for item of level's Training
// split, found by brute force, and the instance it was verified on; nil if
// none is that short.
func VerifiedProgram(t task.Itemized, level, item, maxLen int) ([]int32, task.Instance) {
	in := t.DrawItem(rng.NewKey(1), 0, 0, rng.PurposeReplayTask, level, task.Training, item)
	var actions []int32
	for a := int32(0); int(a) < t.Vocab(); a++ {
		if a != t.Answer() && !slices.Contains(t.NotActions(), a) {
			actions = append(actions, a)
		}
	}
	for n := 0; n < maxLen; n++ {
		p := make([]int32, n+1)
		p[n] = t.Answer()
		for code := 0; ; code++ {
			c := code
			for i := range n {
				p[i] = actions[c%len(actions)]
				c /= len(actions)
			}
			if c > 0 {
				break
			}
			if t.Verify(&in, p) {
				return p, in
			}
		}
	}
	return nil, in
}

package trainer

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// ExplainInstance is the i-th explanation instance of level, the same on
// every engine (held out, like every evaluation).
func ExplainInstance(t task.Task, key rng.Key, level, i int) task.Instance {
	return t.Draw(key, ExplainRound, uint32(i), EvalPurpose(level), level, task.HeldOut)
}

// FormatExplanation renders an explanation on two lines: the episode, then
// the state after every token run.
func FormatExplanation(e task.Explanation) string {
	var b strings.Builder
	note := ""
	if e.Note != "" {
		note = " (" + e.Note + ")"
	}
	fmt.Fprintf(&b, "%s ctx %v target %d%s actions %s reward %.2f %s\n",
		e.Name, e.Context, e.Target, note, strings.Join(e.Tokens, " "), e.Reward, map[bool]string{true: "correct", false: "wrong"}[e.Correct])
	b.WriteString("    trace:")
	for _, s := range e.Trace {
		fmt.Fprintf(&b, " %s→(%s)", s.Token, s.State)
	}
	if len(e.Trace) < len(e.Tokens) {
		b.WriteString(" [rest ignored]")
	}
	return b.String()
}

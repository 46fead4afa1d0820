package trainer

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// explain plays the first count explanation instances of level greedily on
// tr's engine and explains each: one implementation for every engine,
// through GreedyPrograms.
func explain(tr *Trainer, level, count int) ([]task.Explanation, error) {
	cfg, t := tr.cfg, tr.task
	key := rng.NewKey(cfg.Seed)
	ins := make([]task.Instance, count)
	for i := range ins {
		ins[i] = enginekit.ExplainInstance(t, key, level, i)
	}
	progs, err := tr.e.GreedyPrograms(ins)
	if err != nil {
		return nil, err
	}
	T := cfg.Steps
	out := make([]task.Explanation, count)
	for i := range ins {
		out[i] = task.Explain(t, &ins[i], progs[i*T:(i+1)*T])
	}
	return out, nil
}

// formatExplanation renders an explanation on two lines: the episode, then
// the state after every token run.
func formatExplanation(e task.Explanation) string {
	var b strings.Builder
	note := ""
	if e.Note != "" {
		note = " (" + e.Note + ")"
	}
	target := ""
	if e.Target != "" {
		target = " target " + e.Target
	}
	// The program up to its answer (the trace ends there): the tokens
	// after it fill the step budget and are never read.
	actions := strings.Join(e.Tokens, " ")
	if n := len(e.Trace); n > 0 && n < len(e.Tokens) {
		actions = fmt.Sprintf("%s (%d more to the budget, unread)", strings.Join(e.Tokens[:n], " "), len(e.Tokens)-n)
	}
	fmt.Fprintf(&b, "%s ctx %v%s%s actions %s reward %.2f %s\n",
		e.Name, e.Context, target, note, actions, e.Reward, map[bool]string{true: "correct", false: "wrong"}[e.Correct])
	b.WriteString("    trace:")
	for _, s := range e.Trace {
		fmt.Fprintf(&b, " %s→(%s)", s.Token, s.State)
	}
	return b.String()
}

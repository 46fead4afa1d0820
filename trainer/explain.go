package trainer

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
)

// Explanation is one greedy episode shown in full: what the policy saw, what
// is really scored, what it wrote, and what each tool did.
type Explanation struct {
	Stage          int             `json:"stage"`
	Context        []int           `json:"ctx"`
	RewardedTarget int             `json:"rewarded_target"`
	SeedTarget     int             `json:"seed_target"` // what seed.py's sample() calls target
	Tokens         []string        `json:"actions"`
	Trace          []env.TraceStep `json:"trace"`
	Reward         float64         `json:"reward"`
	Correct        bool            `json:"correct"`
}

// Explain plays the i-th explanation task of stage greedily.
func (t *Trainer) Explain(stage, i int) Explanation {
	task := env.DrawTask(t.key, ExplainRound, uint32(i), EvalPurpose(stage), stage)
	w := t.pool.workers[0] // the pool is idle between updates
	w.ws.Reset(1)
	w.setContext(0, task)
	w.ws.Forward(t.model.params, t.model.derived, gru.Greedy, gru.Stream{})
	prog := append([]int32(nil), w.episodeProgram(0)...)
	o, trace := env.Trace(task, prog, nil)
	ex := Explanation{
		Stage: stage, Context: task.Digits[:env.ContextLen(stage)],
		RewardedTarget: task.RewardedTarget(), SeedTarget: task.SampleTarget(),
		Trace: trace, Reward: o.Reward, Correct: o.Correct,
	}
	for _, a := range prog {
		ex.Tokens = append(ex.Tokens, env.TokenName(int(a)))
	}
	return ex
}

// String renders an explanation on two lines: the episode, then the trace.
func (e Explanation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stage %d ctx %v rewarded target %d (seed's sample() says %d) actions %s reward %.2f %s\n",
		e.Stage, e.Context, e.RewardedTarget, e.SeedTarget, strings.Join(e.Tokens, " "), e.Reward, map[bool]string{true: "correct", false: "wrong"}[e.Correct])
	b.WriteString("    trace:")
	for _, s := range e.Trace {
		last := "None"
		if s.HasLast {
			last = fmt.Sprint(s.Last)
		}
		fmt.Fprintf(&b, " %s→(last=%s mem=%s)", env.TokenName(s.Token), last, s.Mem)
	}
	if len(e.Trace) < len(e.Tokens) {
		b.WriteString(" [rest ignored after ANS]")
	}
	return b.String()
}

package trainer

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/rng"
)

// Explanation is one greedy episode shown in full: what the policy saw, what
// is really scored, what it wrote, and what each tool did.
type Explanation struct {
	Stage          int             `json:"stage"`
	Context        []int           `json:"ctx"`
	RewardedTarget int             `json:"rewarded_target"`
	SampleTarget   int             `json:"seed_target"` // what the reference's sample() calls target
	Tokens         []string        `json:"actions"`
	Trace          []env.TraceStep `json:"trace"`
	Reward         float64         `json:"reward"`
	Correct        bool            `json:"correct"`
}

// ExplainTask is the i-th explanation task of stage, the same on every engine.
func ExplainTask(key rng.Key, stage, i int) env.Task {
	return env.DrawTask(key, ExplainRound, uint32(i), EvalPurpose(stage), stage)
}

// NewExplanation scores program on task and traces every tool it ran.
func NewExplanation(task env.Task, program []int32) Explanation {
	o, trace := env.Trace(task, program, nil)
	ex := Explanation{
		Stage: task.Stage, Context: task.Digits[:env.ContextLen(task.Stage)],
		RewardedTarget: task.RewardedTarget(), SampleTarget: task.SampleTarget(),
		Trace: trace, Reward: o.Reward, Correct: o.Correct,
	}
	for _, a := range program {
		ex.Tokens = append(ex.Tokens, env.TokenName(int(a)))
	}
	return ex
}

// String renders an explanation on two lines: the episode, then the trace.
func (e Explanation) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "stage %d ctx %v rewarded target %d (seed's sample() says %d) actions %s reward %.2f %s\n",
		e.Stage, e.Context, e.RewardedTarget, e.SampleTarget, strings.Join(e.Tokens, " "), e.Reward, map[bool]string{true: "correct", false: "wrong"}[e.Correct])
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

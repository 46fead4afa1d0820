package countdowntask

import (
	"fmt"

	"github.com/simdrl/simdrl/task"
)

// Explain steps program on in, as task.Explain would, and shows the pool
// after every token ("[9 _ 1] → 3"): the observation alone does not say
// which numbers the search holds.
func (t *poolTask) Explain(in *task.Instance, program []int32) task.Explanation {
	g := Game{t: t}
	g.Reset(in)
	ex := task.Explanation{Level: int(in.Level), Name: t.level, Target: fmt.Sprint(in.Data[dataTarget]), Note: "pool " + g.p.String()}
	for _, tok := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(tok))
	}
	for _, tok := range program[:min(len(program), max(int(in.Budget), 0))] {
		obs, reward, done := g.Step(tok)
		ex.Reward += reward
		ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(tok), State: g.p.String() + " · obs " + t.ObservationName(obs)})
		if done {
			break
		}
	}
	ex.Correct = g.Correct()
	return ex
}

var _ task.Explainer = (*poolTask)(nil)

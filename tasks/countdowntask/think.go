package countdowntask

import (
	"fmt"
	"math"
	"strconv"

	"github.com/simdrl/simdrl/task"
)

// With -task-spec think=N the vocabulary gains one THINK token after the
// context end (issue 53, item 5: a no-op that buys the policy's GRU one more
// tick on an unchanged pool, Guez et al. 2019; Taufeeque et al. 2024). It is
// legal while the episode has played fewer than N thinks; it leaves the
// pool as it is, costs its step of the budget, pays −think-cost (default 0)
// and is observed as "thought". think=0, the default, is today's task:
// no token, no observation, the same figures bit for bit.

// The spec's keys.
const (
	thinkKey     = "think"
	thinkCostKey = "think-cost"
)

// thinking is the think options: at most most thinks an episode, each
// paying −cost.
type thinking struct {
	most int
	cost float64
}

// MaxThinks bounds think=N: more than the longest budget buys nothing.
const MaxThinks = MaxBudget

// parse sets o's option from key=value, reporting whether key is one of
// the think options.
func (th *thinking) parse(o task.SpecOption) (bool, error) {
	switch o.Key {
	case thinkKey:
		n, err := strconv.Atoi(o.Value)
		if err != nil || n < 0 || n > MaxThinks {
			return true, &task.SpecError{Key: thinkKey, Err: fmt.Errorf("%q is not 0..%d thinks", o.Value, MaxThinks)}
		}
		th.most = n
	case thinkCostKey:
		c, err := strconv.ParseFloat(o.Value, 64)
		if err != nil || math.IsNaN(c) || c < 0 || c > 1 {
			return true, &task.SpecError{Key: thinkCostKey, Err: fmt.Errorf("%q is not a cost in 0..1", o.Value)}
		}
		th.cost = c
	default:
		return false, nil
	}
	return true, nil
}

// String is the options as a spec ("" when off, the default).
func (th thinking) String() string {
	s := ""
	if th.most > 0 {
		s = thinkKey + "=" + strconv.Itoa(th.most)
	}
	if th.cost != 0 {
		if s != "" {
			s += ";"
		}
		s += thinkCostKey + "=" + strconv.FormatFloat(th.cost, 'g', -1, 64)
	}
	return s
}

// thinkToken is THINK, after the context end; -1 when off.
func (t *poolTask) thinkToken() int32 {
	if t.think.most == 0 {
		return -1
	}
	return t.end() + 1
}

// observationKindCount is observationKinds, and "thought" when on.
func (t *poolTask) observationKindCount() int {
	if t.think.most == 0 {
		return len(observationKinds)
	}
	return len(observationKinds) + 1
}

// thoughtObservation is the observation after a THINK on a pool with left
// values.
func (t *poolTask) thoughtObservation(left int) int32 {
	return int32(len(observationKinds)*t.n + left - 1)
}

// thinkStep plays a THINK when tok is one and a think remains: the
// observation, the reward and true; false otherwise (then tok is stepped
// as any other, a spent THINK refused).
func (g *Game) thinkStep(tok int32) (int32, float64, bool) {
	if tok != g.t.thinkToken() || g.thought >= g.t.think.most {
		return 0, 0, false
	}
	g.thought++
	g.steps++
	g.obs = g.t.thoughtObservation(g.p.Left())
	return g.obs, -g.t.think.cost, true
}

// legalThink marks THINK in dst while a think remains.
func (g *Game) legalThink(dst []bool) {
	if tok := g.t.thinkToken(); tok >= 0 {
		dst[tok] = g.thought < g.t.think.most
	}
}

package taskkit

import "github.com/simdrl/simdrl/task"

// episode is one row's rules, stepped a token at a time: seed.Episode,
// calc.Episode.
type episode interface {
	Step(tok int32) float64
	Done() bool
	Truncated() bool
}

// StepRows steps rows 0..len(actions)-1 of eps, one action each, into out:
// what every native Env's Step is (no observations yet), truncation
// reported (task.TruncationReporter). P is *E, so the
// call stays on the slice's elements without boxing them.
func StepRows[E any, P interface {
	*E
	episode
}](eps []E, actions []int32, out task.Transition) {
	for r, a := range actions {
		ep := P(&eps[r])
		out.Obs[r] = task.NoObservation
		out.Reward[r] = ep.Step(a)
		out.Done[r] = ep.Done()
		if out.Truncated != nil {
			out.Truncated[r] = ep.Truncated()
		}
	}
}

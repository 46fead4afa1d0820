package trainer

import "github.com/simdrl/simdrl/task"

// A Reporter is told of a run's events, in order, as Drive reaches them:
// hooks, each optional (nil: not told), as net/http/httptrace's ClientTrace.
// Set in Options.Reporter, it replaces the console: Drive then writes
// nothing to its writer, Progress or Metrics, and calls no
// Options.Evaluated. Without one, Drive renders the run on its writer as
// the command does (the console reporter).
type Reporter struct {
	// Started: training begins (not with EvalOnly) with cfg, on an engine
	// of that backend and description, resuming after resumed updates (0
	// for a fresh run).
	Started func(cfg Config, backend, describe string, resumed int)
	// Updated: update u is applied, at rate updates per second of
	// training so far.
	Updated func(u int, rate float64, st UpdateStats)
	// Evaluated: a periodic evaluation, p as Report.Evaluations holds it,
	// with its results by level on held-out instances and, when training
	// items steer the run (an Itemized task), on those (else nil); trained
	// is false for an evaluation an interrupt cut short, redone on resume.
	// An error ends the run.
	Evaluated func(p EvalPoint, heldOut, training []EvalResult, trained bool) error
	// Trained: the loop ended (its count reached, the stop rule, an
	// interrupt or an error) after updates; the explanations and the final
	// evaluation follow.
	Trained func(updates int)
	// Explaining: level's greedy samples are played next; Explained: one
	// of them.
	Explaining func(level int)
	Explained  func(level int, ex task.Explanation)
	// FinalEvaluated: the final evaluation's results by level, held out,
	// on training instances (nil unless the task holds some out) and on
	// transfer ones (nil unless it has some).
	FinalEvaluated func(heldOut, training, transfer []EvalResult)
	// Enumerating: the exhaustive evaluation begins, with what it will
	// play in words; Enumerated: its results (limit: Options.Exhaustive's
	// bound).
	Enumerating func(plan string)
	// SampledEvaluated: the final sampled evaluation's results
	// (Options.EvalSamples; not told without one).
	SampledEvaluated func(rs []SampledResult)
	Enumerated       func(ls []task.LevelTally, limit int)
	// Finished: the run ends with rep, as Drive returns it.
	Finished func(rep *Report)
}

// The hooks, called where they are set.

func (r *Reporter) started(cfg Config, backend, describe string, resumed int) {
	if r.Started != nil {
		r.Started(cfg, backend, describe, resumed)
	}
}

func (r *Reporter) updated(u int, rate float64, st UpdateStats) {
	if r.Updated != nil {
		r.Updated(u, rate, st)
	}
}

func (r *Reporter) evaluated(p EvalPoint, heldOut, training []EvalResult, trained bool) error {
	if r.Evaluated == nil {
		return nil
	}
	return r.Evaluated(p, heldOut, training, trained)
}

func (r *Reporter) trained(updates int) {
	if r.Trained != nil {
		r.Trained(updates)
	}
}

func (r *Reporter) explaining(level int) {
	if r.Explaining != nil {
		r.Explaining(level)
	}
}

func (r *Reporter) explained(level int, ex task.Explanation) {
	if r.Explained != nil {
		r.Explained(level, ex)
	}
}

func (r *Reporter) finalEvaluated(heldOut, training, transfer []EvalResult) {
	if r.FinalEvaluated != nil {
		r.FinalEvaluated(heldOut, training, transfer)
	}
}

func (r *Reporter) enumerating(plan string) {
	if r.Enumerating != nil {
		r.Enumerating(plan)
	}
}

func (r *Reporter) enumerated(ls []task.LevelTally, limit int) {
	if r.Enumerated != nil {
		r.Enumerated(ls, limit)
	}
}

func (r *Reporter) finished(rep *Report) {
	if r.Finished != nil {
		r.Finished(rep)
	}
}

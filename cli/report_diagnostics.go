package cli

import (
	"slices"

	"github.com/simdrl/simdrl/stats"
	"github.com/simdrl/simdrl/trainer"
)

// diagnosticSummary is one training diagnostic of a configuration's runs
// (the -metrics line's grad_norm and its diagnostics object), read from
// each run's evaluations: its value at the run's last evaluation, and its
// mean over the evaluations in the last 10% of the run's updates (a
// figure of one update is noisy; the late mean says where training
// settled).
type diagnosticSummary struct {
	Name   string          `json:"name"`       // the -metrics key: grad_norm, approx_kl, clip_fraction, explained_variance, flat_groups
	Final  estimate        `json:"final"`      // over the runs, of each run's last value
	Late   estimate        `json:"last_10pct"` // over the runs, of each run's late mean
	BySeed []diagnosticRun `json:"by_seed"`
}

// diagnosticRun is one run's figures of a diagnostic.
type diagnosticRun struct {
	Seed  uint64  `json:"seed"`
	Final float64 `json:"final"`
	Late  float64 `json:"last_10pct"`
	From  int     `json:"from_update"` // the late mean is over its evaluations at updates from here to its last
	Count int     `json:"evaluations"` // how many
}

// lateFraction is the share of a run's updates, at its end, that the late
// mean covers.
const lateFraction = 0.1

// diagnosticFigure reads one diagnostic from an evaluation; ok is false
// where the evaluation does not have it.
type diagnosticFigure struct {
	name  string
	value func(p trainer.EvalPoint) (x float64, ok bool)
}

// estimatorFigure is a figure of the diagnostics object, which only the
// estimators that compute diagnostics write; -metrics leaves a figure
// that is 0 out of it, so in an evaluation that has the object a missing
// figure is 0.
func estimatorFigure(name string, pick func(*trainer.Diagnostics) float64) diagnosticFigure {
	return diagnosticFigure{name, func(p trainer.EvalPoint) (float64, bool) {
		if p.Diagnostics == nil {
			return 0, false
		}
		return pick(p.Diagnostics), true
	}}
}

// diagnosticFigures are the diagnostics the report summarises, in its order.
var diagnosticFigures = []diagnosticFigure{
	{"grad_norm", func(p trainer.EvalPoint) (float64, bool) { return p.GradNorm, true }},
	estimatorFigure("approx_kl", func(d *trainer.Diagnostics) float64 { return d.ApproxKL }),
	estimatorFigure("clip_fraction", func(d *trainer.Diagnostics) float64 { return d.ClipFraction }),
	estimatorFigure("explained_variance", func(d *trainer.Diagnostics) float64 { return d.ExplainedVariance }),
	estimatorFigure("flat_groups", func(d *trainer.Diagnostics) float64 { return d.FlatGroups }),
}

// diagnostics summarises each figure that every run of c has in some
// evaluation and that some evaluation has non-zero (a figure its
// estimator does not compute is never written: absent, not 0); nil when
// there is none.
func (s *summarizer) diagnostics(c *seedConfig) ([]diagnosticSummary, error) {
	var out []diagnosticSummary
	for _, f := range diagnosticFigures {
		runs := make([]diagnosticRun, 0, len(c.runs))
		nonzero := false
		for _, r := range c.runs {
			d, ok := runDiagnostic(r.curve, f)
			if !ok {
				break
			}
			d.Seed = r.rep.Config.Seed
			nonzero = nonzero || slices.ContainsFunc(r.curve, func(p trainer.EvalPoint) bool { x, ok := f.value(p); return ok && x != 0 })
			runs = append(runs, d)
		}
		if len(runs) < len(c.runs) || !nonzero {
			continue
		}
		var final, late []float64
		for _, d := range runs {
			final, late = append(final, d.Final), append(late, d.Late)
		}
		ds := diagnosticSummary{Name: f.name, BySeed: runs}
		var err error
		if ds.Final, err = s.estimate("final", stats.Column(final)); err != nil {
			return nil, err
		}
		if ds.Late, err = s.estimate("last 10% of updates", stats.Column(late)); err != nil {
			return nil, err
		}
		out = append(out, ds)
	}
	return out, nil
}

// runDiagnostic is a run's figure f: at its last evaluation that has it,
// and its mean over those at updates ≥ (1 − lateFraction) × that one's
// update; ok is false when no evaluation has it.
func runDiagnostic(curve []trainer.EvalPoint, f diagnosticFigure) (d diagnosticRun, ok bool) {
	var updates []int
	var xs []float64
	for _, p := range curve { // by update
		if x, ok := f.value(p); ok {
			updates, xs = append(updates, p.Update), append(xs, x)
		}
	}
	if len(xs) == 0 {
		return d, false
	}
	last := updates[len(updates)-1]
	from := float64(last) * (1 - lateFraction)
	i := len(updates) - 1
	for i > 0 && float64(updates[i-1]) >= from {
		i--
	}
	return diagnosticRun{Final: xs[len(xs)-1], Late: stats.Mean(xs[i:]), From: updates[i], Count: len(xs) - i}, true
}

package cli

import "github.com/simdrl/simdrl/trainer"

// diagnosticScalars adds an update's diagnostics (trainer.Diagnostics) under
// diag/, those -metrics writes: a figure that is 0 is left out of both.
func diagnosticScalars(d *trainer.Diagnostics, add func(tag string, v float64)) {
	if d == nil {
		return
	}
	for _, s := range []struct {
		tag string
		v   float64
	}{
		{"diag/approx_kl", d.ApproxKL}, {"diag/clip_fraction", d.ClipFraction},
		{"diag/explained_variance", d.ExplainedVariance}, {"diag/flat_groups", d.FlatGroups},
		{"diag/optimizer_steps", float64(d.Steps)},
	} {
		if s.v != 0 {
			add(s.tag, s.v)
		}
	}
}

package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Interval is a confidence interval, [Lo, Hi].
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Bootstrap describes a percentile bootstrap: Reps resamples, a two-sided
// interval of coverage Level (0.95 for 95%), drawn from Rand.
type Bootstrap struct {
	Reps  int
	Level float64
	Rand  *rand.Rand
}

// NewBootstrap is a 95% bootstrap of reps resamples drawn from a PCG
// seeded with seed and stream: the same arguments give the same intervals.
// A caller that computes several intervals gives each its own stream, so
// that each one's draws do not depend on which others were computed.
func NewBootstrap(reps int, seed, stream uint64) Bootstrap {
	return Bootstrap{Reps: reps, Level: 0.95, Rand: rand.New(rand.NewPCG(seed, stream))}
}

func (b Bootstrap) check() error {
	switch {
	case b.Reps < 1:
		return fmt.Errorf("stats: bootstrap of %d resamples", b.Reps)
	case !(b.Level > 0 && b.Level < 1):
		return fmt.Errorf("stats: confidence level %v is not in (0, 1)", b.Level)
	case b.Rand == nil:
		return errors.New("stats: bootstrap without a random source")
	}
	return nil
}

// percentiles is the percentile interval of replicates: their
// (1−Level)/2 and (1+Level)/2 quantiles, as arch's conf_int(method=
// "percentile") that rliable calls computes them.
func (b Bootstrap) percentiles(replicates []float64) Interval {
	slices.Sort(replicates)
	a := (1 - b.Level) / 2
	return Interval{Lo: sortedQuantile(replicates, a), Hi: sortedQuantile(replicates, 1-a)}
}

// resample fills out (the shape of m) with a stratified resample of m:
// for each task independently, m's runs drawn with replacement (rliable's
// StratifiedBootstrap: the runs of one task are exchangeable, the tasks
// are not). Draws go task after task, run after run.
func resample(m, out Scores, r *rand.Rand) {
	runs := len(m)
	for t := range m[0] {
		for i := range out {
			out[i][t] = m[r.IntN(runs)][t]
		}
	}
}

// newLike is a zero matrix of m's shape.
func newLike(m Scores) Scores {
	out := make(Scores, len(m))
	for i := range out {
		out[i] = make([]float64, len(m[i]))
	}
	return out
}

// CI is the percentile bootstrap interval of stat over stratified
// resamples of m (StratifiedBootstrap with rliable's "percentile" method).
// An error for a matrix that Check refuses or a bootstrap without reps,
// level or source; NaN bounds when stat is NaN on a resample.
func (b Bootstrap) CI(m Scores, stat func(Scores) float64) (Interval, error) {
	cis, err := b.CIs(m, func(s Scores) []float64 { return []float64{stat(s)} })
	if err != nil {
		return Interval{}, err
	}
	return cis[0], nil
}

// CIs is CI for a statistic of several values (a performance profile's
// fractions at each threshold): one interval per value, all from the same
// resamples, as rliable computes them.
func (b Bootstrap) CIs(m Scores, stat func(Scores) []float64) ([]Interval, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	return b.collect(func() []float64 {
		s := newLike(m)
		resample(m, s, b.Rand)
		return stat(s)
	})
}

// PairCI is the percentile bootstrap interval of stat(x, y) when x and y
// (runs × tasks each, the same tasks, any numbers of runs) are resampled
// independently, each stratified by task (rliable's
// StratifiedIndependentBootstrap: the probability of improvement's CI).
func (b Bootstrap) PairCI(x, y Scores, stat func(x, y Scores) float64) (Interval, error) {
	if err := b.check(); err != nil {
		return Interval{}, err
	}
	if err := checkPair(x, y); err != nil {
		return Interval{}, err
	}
	cis, err := b.collect(func() []float64 {
		sx, sy := newLike(x), newLike(y)
		resample(x, sx, b.Rand)
		resample(y, sy, b.Rand)
		return []float64{stat(sx, sy)}
	})
	if err != nil {
		return Interval{}, err
	}
	return cis[0], nil
}

// collect runs draw Reps times and takes each value's percentile interval.
func (b Bootstrap) collect(draw func() []float64) ([]Interval, error) {
	var reps [][]float64 // reps[value][rep]
	for r := 0; r < b.Reps; r++ {
		v := draw()
		if reps == nil {
			reps = make([][]float64, len(v))
			for i := range reps {
				reps[i] = make([]float64, b.Reps)
			}
		}
		if len(v) != len(reps) {
			return nil, fmt.Errorf("stats: the statistic gave %d values, then %d", len(reps), len(v))
		}
		for i, x := range v {
			reps[i][r] = x
		}
	}
	out := make([]Interval, len(reps))
	for i, rs := range reps {
		if slices.ContainsFunc(rs, math.IsNaN) {
			out[i] = Interval{Lo: math.NaN(), Hi: math.NaN()}
			continue
		}
		out[i] = b.percentiles(rs)
	}
	return out, nil
}

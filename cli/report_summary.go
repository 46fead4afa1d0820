package cli

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/simdrl/simdrl/stats"
	"github.com/simdrl/simdrl/trainer"
)

// seedSummary is everything `simdrl report` computes (report.json).
type seedSummary struct {
	Format         string           `json:"format"` // reportFormat
	Task           string           `json:"task"`
	TaskSpec       string           `json:"task_spec,omitempty"`
	Levels         []string         `json:"levels"`
	Bootstrap      int              `json:"bootstrap"`  // resamples per interval (curves: at most curveReps)
	Seed           uint64           `json:"seed"`       // the bootstrap's PCG seed
	Confidence     float64          `json:"confidence"` // of every interval: 0.95
	Configurations []*configSummary `json:"configurations"`
	// Improvement is P(X > Y) for every two configurations, X listed first.
	Improvement []improvement `json:"probability_of_improvement,omitempty"`
}

// configSummary is one configuration's figures.
type configSummary struct {
	Label      string         `json:"label"`
	Config     map[string]any `json:"config"` // seed and threads left out
	Seeds      []uint64       `json:"seeds"`
	Runs       []runFigures   `json:"runs"` // what the figures below are computed from
	Splits     []splitSummary `json:"splits"`
	Solve      *solveSummary  `json:"solve,omitempty"` // absent without a stop rule (stop_at 0)
	Profile    profile        `json:"profile"`         // τ from 0 to 1
	TopProfile profile        `json:"top_profile"`     // τ near 1, where solve rates differ (summarizer.top)
	Curves     []curve        `json:"curves,omitempty"`
	// Diagnostics are the training diagnostics its runs' evaluations
	// have (report_diagnostics.go); absent when they have none.
	Diagnostics []diagnosticSummary `json:"diagnostics,omitempty"`
}

// runFigures is one run's final solve rates, where they came from.
type runFigures struct {
	Seed     uint64     `json:"seed"`
	Report   string     `json:"report"`
	Metrics  string     `json:"metrics,omitempty"` // the -metrics file its curve came from ("": the report's evaluations)
	Updates  int        `json:"updates"`
	HeldOut  []*float64 `json:"held_out"` // null for a level not played
	Training []*float64 `json:"training,omitempty"`
	Transfer []*float64 `json:"transfer,omitempty"`
}

// splitSummary is the final evaluation's solve rates on one split.
type splitSummary struct {
	Split  string      `json:"split"`      // "held-out", "training" or "transfer"
	Levels []*estimate `json:"levels"`     // level by level, over the runs; null for a level a run did not play
	All    estimate    `json:"all_levels"` // over runs × levels, resampled by level (stratified)
}

// estimate is a sample's figures: runs × tasks scores.
type estimate struct {
	Name   string         `json:"name"`
	Runs   int            `json:"runs"`
	IQM    float64        `json:"iqm"`
	IQMCI  stats.Interval `json:"iqm_ci"`
	Mean   float64        `json:"mean"`
	MeanCI stats.Interval `json:"mean_ci"`
	SD     float64        `json:"sd"` // sample standard deviation (n−1), of every score
	Min    float64        `json:"min"`
}

// solveSummary is how soon the stop rule ended the runs.
type solveSummary struct {
	StopAt           float64        `json:"stop_at"`
	Runs             int            `json:"runs"`
	Solved           int            `json:"solved"`
	SolvedFraction   float64        `json:"solved_fraction"`
	SolvedFractionCI stats.Interval `json:"solved_fraction_ci"`
	// Censored says how runs that never solved count: at the updates and
	// seconds they ran (their budget), so that every figure is a lower
	// bound when any did not solve.
	Censored string   `json:"censored"`
	Updates  estimate `json:"updates"`
	Seconds  estimate `json:"seconds"`
	BySeed   []solve  `json:"by_seed"`
}

// solve is one run's time to solve, or what it ran without solving.
type solve struct {
	Seed    uint64  `json:"seed"`
	Solved  bool    `json:"solved"`
	Updates int     `json:"updates"`
	Seconds float64 `json:"seconds"`
}

// profile is a performance profile: the fraction of runs × levels whose
// held-out solve rate is above each threshold, with its intervals.
type profile struct {
	Split    string           `json:"split"`
	Taus     []float64        `json:"taus"`
	Fraction []float64        `json:"fraction"`
	CI       []stats.Interval `json:"ci"`
}

// curve is a level's learning curve over the runs: at each update, the
// IQM of the runs' held-out solve rates, with its interval.
type curve struct {
	Level   string           `json:"level"`
	Updates []int            `json:"updates"`
	Runs    []int            `json:"runs"` // the runs with a value there
	IQM     []float64        `json:"iqm"`
	CI      []stats.Interval `json:"ci"`
}

// improvement is P(X > Y) on the held-out solve rates, over the levels.
type improvement struct {
	X  string         `json:"x"`
	Y  string         `json:"y"`
	P  float64        `json:"p"`
	CI stats.Interval `json:"ci"`
}

// censoredWords is solveSummary.Censored.
const censoredWords = "runs that did not solve count at the updates and seconds they ran (their budget): with any such run, every figure is a lower bound"

// Curves: at most curvePoints updates (evenly thinned) and curveReps
// resamples an interval, so that a long run's curve takes seconds, not
// minutes; profileTaus thresholds.
const (
	curvePoints = 200
	curveReps   = 2000
	profileTaus = 100
)

// summarizer computes the figures, each interval from a bootstrap stream
// of its own, numbered in the order they are computed (which the sorted
// configurations and runs fix): the same runs and -seed give the same file.
type summarizer struct {
	reps   int
	seed   uint64
	stream uint64
	top    float64 // the top profile's lowest τ
}

func (s *summarizer) boot(reps int) stats.Bootstrap {
	s.stream++
	return stats.NewBootstrap(reps, s.seed, s.stream)
}

// summarize computes the whole report.
func (s *summarizer) summarize(configs []*seedConfig) (*seedSummary, error) {
	rep := configs[0].runs[0].rep
	out := &seedSummary{Format: reportFormat, Task: rep.Config.Task, TaskSpec: rep.Config.TaskSpec, Levels: rep.Levels,
		Bootstrap: s.reps, Seed: s.seed, Confidence: 0.95}
	heldOut := make([]stats.Scores, len(configs))
	s.top = topProfileFrom(configs)
	for i, c := range configs {
		cs, err := s.config(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.label, err)
		}
		out.Configurations = append(out.Configurations, cs)
		heldOut[i], _ = finalScores(c.runs, func(r *trainer.Report) []float64 { return r.Final.SolveRate })
	}
	for i := range configs {
		for j := i + 1; j < len(configs); j++ {
			ci, err := s.boot(s.reps).PairCI(heldOut[i], heldOut[j], stats.ProbabilityOfImprovement)
			if err != nil {
				return nil, err
			}
			out.Improvement = append(out.Improvement, improvement{X: configs[i].label, Y: configs[j].label,
				P: stats.ProbabilityOfImprovement(heldOut[i], heldOut[j]), CI: ci})
		}
	}
	// Last, so that the figures above draw the bootstrap streams they drew
	// before the report had diagnostics.
	for i, c := range configs {
		d, err := s.diagnostics(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", c.label, err)
		}
		out.Configurations[i].Diagnostics = d
	}
	return out, nil
}

// finalScores is the runs × levels matrix of a final evaluation's rates,
// of the levels every run played (played): a level a run did not play
// (NaN: null in its report) has no score to average.
func finalScores(runs []*seedRun, pick func(*trainer.Report) []float64) (m stats.Scores, played []int) {
	for l := range pick(runs[0].rep) {
		if !slices.ContainsFunc(runs, func(r *seedRun) bool { return math.IsNaN(pick(r.rep)[l]) }) {
			played = append(played, l)
		}
	}
	m = make(stats.Scores, len(runs))
	for i, r := range runs {
		for _, l := range played {
			m[i] = append(m[i], pick(r.rep)[l])
		}
	}
	return m, played
}

func (s *summarizer) config(c *seedConfig) (*configSummary, error) {
	cs := &configSummary{Label: c.label, Config: c.config}
	for _, r := range c.runs {
		cs.Seeds = append(cs.Seeds, r.rep.Config.Seed)
		cs.Runs = append(cs.Runs, runFigures{Seed: r.rep.Config.Seed, Report: r.path, Metrics: r.metrics, Updates: r.rep.Updates,
			HeldOut: nullable(r.rep.Final.SolveRate), Training: nullable(r.rep.Final.TrainSolveRate),
			Transfer: nullable(r.rep.Final.TransferSolveRate)})
	}
	levels := c.runs[0].rep.Levels
	splits := []struct {
		name string
		pick func(*trainer.Report) []float64
	}{
		{"held-out", func(r *trainer.Report) []float64 { return r.Final.SolveRate }},
		{"training", func(r *trainer.Report) []float64 { return r.Final.TrainSolveRate }},
		// An itemized task's transfer split: the sizes or patterns it never
		// trains on (the tape task's 6 to 32 leaves), its claim to generalise.
		{"transfer", func(r *trainer.Report) []float64 { return r.Final.TransferSolveRate }},
		// The sampled evaluation's (-eval-samples), when every run made one.
		{"held-out pass@1 (sampled)", func(r *trainer.Report) []float64 { return sampledRates(r, false) }},
		{"held-out pass@k (sampled)", func(r *trainer.Report) []float64 { return sampledRates(r, true) }},
	}
	for _, sp := range splits {
		if slices.ContainsFunc(c.runs, func(r *seedRun) bool { return sp.pick(r.rep) == nil }) {
			continue // a task that holds nothing out reports no training split
		}
		m, played := finalScores(c.runs, sp.pick)
		if len(played) == 0 {
			continue // no level of the split was played
		}
		ss := splitSummary{Split: sp.name, Levels: make([]*estimate, len(levels))}
		for j, l := range played {
			e, err := s.estimate(levels[l], stats.Column(m.Task(j)))
			if err != nil {
				return nil, err
			}
			ss.Levels[l] = &e
		}
		all, err := s.estimate("all levels", m)
		if err != nil {
			return nil, err
		}
		ss.All = all
		cs.Splits = append(cs.Splits, ss)
	}
	var err error
	if cs.Solve, err = s.solve(c); err != nil {
		return nil, err
	}
	held, _ := finalScores(c.runs, func(r *trainer.Report) []float64 { return r.Final.SolveRate })
	if cs.Profile, err = s.profile(held, stats.Taus(0, 1, profileTaus)); err != nil {
		return nil, err
	}
	if cs.TopProfile, err = s.profile(held, stats.Taus(s.top, 1, profileTaus)); err != nil {
		return nil, err
	}
	if cs.Curves, err = s.curves(c); err != nil {
		return nil, err
	}
	return cs, nil
}

// profile is m's performance profile at taus, with its intervals.
func (s *summarizer) profile(m stats.Scores, taus []float64) (profile, error) {
	cis, err := s.boot(s.reps).CIs(m, func(m stats.Scores) []float64 { return stats.ScoreDistribution(m, taus) })
	if err != nil {
		return profile{}, err
	}
	return profile{Split: "held-out", Taus: taus, Fraction: stats.ScoreDistribution(m, taus), CI: cis}, nil
}

// topProfileFrom is where the top profile starts: the lowest final
// held-out solve rate of all runs, down to the hundredth, kept within
// [0.9, 0.99]. Solved runs score 0.99 to 1, where the whole profile is a
// cliff at the right edge; the top one spreads that range out.
func topProfileFrom(configs []*seedConfig) float64 {
	lo := 1.0
	for _, c := range configs {
		for _, r := range c.runs {
			for _, x := range r.rep.Final.SolveRate {
				if !math.IsNaN(x) { // a level not played
					lo = min(lo, x)
				}
			}
		}
	}
	return min(max(math.Floor(100*lo)/100, 0.9), 0.99)
}

// estimate is m's IQM, mean, sd and minimum with the intervals.
func (s *summarizer) estimate(name string, m stats.Scores) (estimate, error) {
	iqm, err := s.boot(s.reps).CI(m, stats.AggregateIQM)
	if err != nil {
		return estimate{}, err
	}
	mean, err := s.boot(s.reps).CI(m, stats.AggregateMean)
	if err != nil {
		return estimate{}, err
	}
	flat := m.Flat()
	return estimate{Name: name, Runs: m.Runs(), IQM: stats.AggregateIQM(m), IQMCI: iqm, Mean: stats.AggregateMean(m), MeanCI: mean,
		SD: stats.StdDev(flat), Min: stats.Min(flat)}, nil
}

// solve is the configuration's updates and seconds to solve, nil when its
// runs have no stop rule.
func (s *summarizer) solve(c *seedConfig) (*solveSummary, error) {
	stopAt := c.runs[0].rep.Config.StopAt
	if stopAt == 0 {
		return nil, nil
	}
	ss := &solveSummary{StopAt: stopAt, Runs: len(c.runs), Censored: censoredWords}
	var solved, updates, seconds []float64
	for _, r := range c.runs {
		v := solve{Seed: r.rep.Config.Seed, Updates: r.rep.Updates, Seconds: r.rep.TrainSeconds}
		for _, cf := range r.rep.Confirmations {
			if cf.Solved {
				v.Solved, v.Updates = true, cf.Update
			}
		}
		ss.BySeed = append(ss.BySeed, v)
		one := 0.0
		if v.Solved {
			one, ss.Solved = 1, ss.Solved+1
		}
		solved = append(solved, one)
		updates = append(updates, float64(v.Updates))
		seconds = append(seconds, v.Seconds)
	}
	ss.SolvedFraction = stats.Mean(solved)
	var err error
	if ss.SolvedFractionCI, err = s.boot(s.reps).CI(stats.Column(solved), stats.AggregateMean); err != nil {
		return nil, err
	}
	if ss.Updates, err = s.estimate("updates", stats.Column(updates)); err != nil {
		return nil, err
	}
	if ss.Seconds, err = s.estimate("seconds", stats.Column(seconds)); err != nil {
		return nil, err
	}
	return ss, nil
}

// curves is each level's learning curve: at every update some run
// evaluated, the IQM of the held-out solve rates of the runs evaluated
// there. A run the stop rule ended counts at its last value after it
// stopped (its policy is final: leaving it out would make the curve the
// slow runs' alone); a run that ended otherwise counts no further.
func (s *summarizer) curves(c *seedConfig) ([]curve, error) {
	grid := map[int]bool{}
	for _, r := range c.runs {
		for _, p := range r.curve {
			grid[p.Update] = true
		}
	}
	if len(grid) == 0 {
		return nil, nil
	}
	updates := thin(slices.Sorted(maps.Keys(grid)), curvePoints)
	var out []curve
	for l, name := range c.runs[0].rep.Levels {
		if !slices.ContainsFunc(c.runs, func(r *seedRun) bool { return !math.IsNaN(r.rep.Final.SolveRate[l]) }) {
			// A level no run's held-out split has (the tape's transfer
			// sizes): the periodic evaluations, on that split, never
			// played it, whatever their metrics lines say.
			out = append(out, curve{Level: name})
			continue
		}
		cv := curve{Level: name}
		for _, u := range updates {
			var xs []float64
			for _, r := range c.runs {
				if x, ok := valueAt(r, u, l); ok && !math.IsNaN(x) {
					xs = append(xs, x)
				}
			}
			if len(xs) == 0 {
				continue
			}
			ci, err := s.boot(min(s.reps, curveReps)).CI(stats.Column(xs), stats.AggregateIQM)
			if err != nil {
				return nil, err
			}
			cv.Updates, cv.Runs = append(cv.Updates, u), append(cv.Runs, len(xs))
			cv.IQM, cv.CI = append(cv.IQM, stats.IQM(xs)), append(cv.CI, ci)
		}
		out = append(out, cv)
	}
	return out, nil
}

// valueAt is run r's held-out solve rate of level l at update u: its
// evaluation there, or after a stop by the stop rule its last one.
func valueAt(r *seedRun, u, l int) (float64, bool) {
	i, found := slices.BinarySearchFunc(r.curve, u, func(p trainer.EvalPoint, u int) int { return p.Update - u })
	if found {
		return r.curve[i].SolveRate[l], true
	}
	if i == len(r.curve) && i > 0 && stoppedSolved(r.rep) {
		return r.curve[i-1].SolveRate[l], true
	}
	return 0, false
}

// stoppedSolved: the stop rule ended the run.
func stoppedSolved(rep *trainer.Report) bool {
	return slices.ContainsFunc(rep.Confirmations, func(c trainer.Confirmation) bool { return c.Solved })
}

// thin keeps at most n of xs, evenly spaced, the first and the last among
// them.
func thin(xs []int, n int) []int {
	if len(xs) <= n {
		return xs
	}
	out := make([]int, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, xs[i*(len(xs)-1)/(n-1)])
	}
	return out
}

// nullable is xs with a level not played (NaN) as nil: null in the JSON.
func nullable(xs []float64) []*float64 {
	if xs == nil {
		return nil
	}
	out := make([]*float64, len(xs))
	for i := range xs {
		if !math.IsNaN(xs[i]) {
			out[i] = &xs[i]
		}
	}
	return out
}

// sampledRates are a report's held-out pass@1 (or, k, pass@k) per level
// from its sampled evaluation (trainer.Report.Sampled): NaN for a level
// with no instance, nil for a run without one.
func sampledRates(rep *trainer.Report, k bool) []float64 {
	var out []float64
	for _, r := range rep.Sampled {
		if r.Split != "held-out" || r.Subset != "" {
			continue
		}
		for len(out) <= r.Level {
			out = append(out, math.NaN())
		}
		if r.Instances > 0 {
			out[r.Level] = r.PassAt1
			if k {
				out[r.Level] = r.PassAtK
			}
		}
	}
	if out != nil && len(out) < len(rep.Levels) {
		out = append(out, slices.Repeat([]float64{math.NaN()}, len(rep.Levels)-len(out))...)
	}
	return out
}

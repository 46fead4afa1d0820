package trainer

import (
	"fmt"
	"math"
	"strings"

	"github.com/simdrl/simdrl/task"
)

// The stop rule. A periodic evaluation (cfg.EvalBatch episodes per level,
// 200 in the default recipe) that finds every trained level at ≥ cfg.StopAt
// only nominates the run: 198 of 200 is weak evidence for 0.99. A
// confirming evaluation then plays ConfirmEpisodes greedy episodes of every
// level on its own round (ConfirmRound), and the run stops only if, for
// every trained level, the one-sided 99% Wilson lower bound of the
// confirmation's solve rate is ≥ cfg.StopAt (with StopAt = 1, which no
// finite sample's bound reaches, only a confirmation without a single
// failure counts).
//
// A task that names subsets of its instances (task.Subsetter: calc's ties,
// zeros and negative intermediates) and lists them (task.Enumerator) must
// also be right on its subsets: a confirmation then plays every training
// instance of each trained level whose training split can be listed
// (maxEnumerated), and each non-empty subset's solve rate must be ≥
// cfg.StopAt. Ties are about 5% of abs(a*b-c*d)'s tuples, so 1000 sampled
// episodes hold some 50 of them, and a policy failing a fifth of its ties
// confirmed (docs/recipes.md, "Ties and the stop rule"). The training
// split, not the held-out one, keeps
// the held-out subsets a test; a point estimate, because 400 ties all
// correct bound the rate only at 0.987.
//
// Why 99% and 1000 episodes: the final evaluation is another 1000 held-out
// episodes (the final round), and the goal is that it too is ≥ 0.99 on every
// level. At 1000 episodes the 95% bound lets up to 4 failures pass, and a
// policy that fails 8 in 1000 passes such a confirmation 10% of the time and
// then falls below 0.99 on the final 1000 18% of the time. The 99% bound
// lets at most 2 failures pass: a level failing λ in 1000 confirms with
// P(Poisson(λ) ≤ 2) (68% at λ = 2, 6% at λ = 6, 1.4% at λ = 8), so stops
// happen at λ ≲ 3, where the final falls below 0.99 (≥ 11 failures) with
// probability ≤ 0.03%; the worst case over λ of confirming and then failing
// the final is 0.3% per level and confirmation (at λ ≈ 7), against 1.8%
// with the 95% bound. 1000 is also about the smallest round size that
// tolerates a failure or two (a perfect score needs n ≥ 99·z² ≈ 536 to
// pass at all); it costs five periodic evaluations, once per nominating
// evaluation. The confirmation never changes the focus weights or anything
// else of training: a run that does not stop continues as if it had not run.
const (
	ConfirmEpisodes = 1000
	ConfirmZ        = 2.3263478740408408 // the standard normal's 99% quantile: a one-sided 99% bound
)

// Confirmation is one confirming evaluation: per level, its solve rate and
// the lower bound the stop rule compares with cfg.StopAt (levels the run
// does not train are evaluated and reported but not required).
type Confirmation struct {
	Update     int       `json:"update"`
	Episodes   int       `json:"episodes"` // per level
	SolveRate  []float64 `json:"solve_rate"`
	LowerBound []float64 `json:"lower_bound"`
	Solved     bool      `json:"solved"` // every trained level passed: the run stops
	// TrainingSubsets is, per level, every listed training instance's
	// count by subset (nil for a level not checked; absent for a task
	// without subsets).
	TrainingSubsets [][]task.Tally `json:"training_subsets,omitempty"`
}

// wilsonLower is the Wilson score lower bound of a success rate for
// successes of n trials at normal quantile z (0 for n = 0).
func wilsonLower(successes, n int, z float64) float64 {
	if n <= 0 {
		return 0
	}
	nf := float64(n)
	p := float64(successes) / nf
	z2 := z * z
	lo := (p + z2/(2*nf) - z*math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))) / (1 + z2/nf)
	return max(lo, 0)
}

// passes reports whether a level's confirmation supports a solve rate of at
// least stopAt: the lower bound does, or, at stopAt = 1, every episode was
// correct.
func passes(r EvalResult, lower, stopAt float64) bool {
	if stopAt >= 1 {
		return r.SolveRate == 1
	}
	return lower >= stopAt
}

// successes recovers the count of correct episodes from a solve rate.
func successes(r EvalResult) int { return int(math.Round(r.SolveRate * float64(r.Episodes))) }

// formatConfirmation is the line the loop prints after a confirmation.
func formatConfirmation(cf Confirmation, stopAt float64) string {
	parts := make([]string, len(cf.SolveRate))
	for s := range cf.SolveRate {
		parts[s] = fmt.Sprintf("T%d=%.3f (≥%.4f)", s, cf.SolveRate[s], cf.LowerBound[s])
	}
	for lv, ts := range cf.TrainingSubsets {
		for _, t := range ts {
			if t.N > 0 && t.Solved < t.N {
				parts = append(parts, fmt.Sprintf("T%d %s %d/%d", lv, t.Name, t.Solved, t.N))
			}
		}
	}
	verdict := fmt.Sprintf("solved at ≥ %.3f: stopping after update %d", stopAt, cf.Update)
	if !cf.Solved {
		verdict = "not confirmed: training continues"
	}
	return fmt.Sprintf("confirming on %d episodes per level → %s (99%% lower bounds); %s",
		cf.Episodes, strings.Join(parts, " "), verdict)
}

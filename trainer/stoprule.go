package trainer

import "math"

// The stop rule's test, one confirmation at a time (docs/recipes.md, "The
// stop rule"). A run may confirm many times (a level just below stop_at
// fails most confirmations and passes now and then), so a test at a fixed
// level would let the run stop falsely with a probability that grows with
// every confirmation. The k-th confirmation of a run is instead tested at
//
//	α_k = ConfirmAlpha · 6/(π² k²),  so that Σ_k α_k ≤ ConfirmAlpha:
//
// whatever the number of confirmations, the probability that a run stops
// while some trained level's true solve rate is below stop_at is at most
// ConfirmAlpha (1%): at the confirmation that stops the run every trained
// level passed, the one below stop_at too, which happens with probability
// at most α_k. The schedule spends most of α early (61% on the first
// confirmation, which tests at nearly the old one-attempt rule's level),
// where a solved run stops; a Bonferroni bound over a fixed maximum number
// of confirmations would spend it evenly and slow every run, and a
// sequential test that pools confirmations would pool different weights.
//
// Each level's test is exact: with f failures in n episodes it passes when
// P(Binomial(n, 1−stop_at) ≤ f) ≤ α_k, the one-sided Clopper–Pearson
// bound. As α_k shrinks, fewer failures pass at a fixed n, so the
// confirmation grows: n_k is the smallest size from ConfirmEpisodes up, in
// steps of ConfirmStep, at which a level failing a fifth of what stop_at
// allows (0.998 at stop_at 0.99) passes with probability at least 1/2,
// and at most MaxConfirmEpisodes. At stop_at 0.99 that is 1000 episodes and
// at most 2 failures on the first confirmation (the old rule's), 1500 and 4
// on the second, and about 3000 by the hundredth. A stop_at that not even
// MaxConfirmEpisodes perfect episodes support at α_k is never confirmed.
const (
	ConfirmEpisodes    = 1000  // the first confirmation's episodes per level, the smallest
	ConfirmStep        = 500   // a later confirmation grows in steps of this many
	MaxConfirmEpisodes = 10000 // and never beyond this
	ConfirmAlpha       = 0.01  // the probability of a false stop over a whole run
)

// confirmTest is the k-th confirmation's test of every level.
type confirmTest struct {
	Episodes    int     // per level
	Alpha       float64 // this confirmation's share of ConfirmAlpha
	MaxFailures int     // a level passes with at most this many failures; −1: none passes
}

// confirmTestAt is the test of a run's k-th confirmation (k ≥ 1) at
// stopAt, a pure function of both. At stopAt ≥ 1, which no sample
// supports, ConfirmEpisodes episodes without a failure pass, always.
func confirmTestAt(k int, stopAt float64) confirmTest {
	alpha := confirmAlpha(k)
	if stopAt >= 1 {
		return confirmTest{Episodes: ConfirmEpisodes, Alpha: alpha, MaxFailures: 0}
	}
	solved := 1 - (1-stopAt)/5 // a level failing a fifth of what stopAt allows
	t := confirmTest{Alpha: alpha}
	for n := ConfirmEpisodes; n <= MaxConfirmEpisodes; n += ConfirmStep {
		t.Episodes, t.MaxFailures = n, maxFailures(n, stopAt, alpha)
		if t.MaxFailures >= 0 && binomialCDF(t.MaxFailures, n, 1-solved) >= 0.5 {
			break
		}
	}
	if t.MaxFailures < 0 {
		// Not even MaxConfirmEpisodes correct episodes support stopAt at
		// this α_k (stop_at above about 0.9995 the first time): nothing
		// passes, and the confirmation that says so stays small.
		t.Episodes = ConfirmEpisodes
	}
	return t
}

// confirmAlpha is α_k, the k-th confirmation's share of ConfirmAlpha
// (k < 1 counts as 1).
func confirmAlpha(k int) float64 {
	k = max(k, 1)
	return ConfirmAlpha * 6 / (math.Pi * math.Pi * float64(k) * float64(k))
}

// passes reports whether a level with successes of t.Episodes passes.
func (t confirmTest) passes(successes int) bool {
	return t.Episodes-successes <= t.MaxFailures
}

// maxFailures is the most failures in n episodes for which a level with
// true solve rate stopAt passes with probability at most alpha: the
// largest f with P(Binomial(n, 1−stopAt) ≤ f) ≤ alpha, −1 when even
// none fails too often. It sums the terms in binomialCDF's order, once.
func maxFailures(n int, stopAt, alpha float64) int {
	if stopAt >= 1 {
		return n
	}
	var cdf float64
	for f := 0; f <= n; f++ {
		cdf += binomialTerm(f, n, 1-stopAt)
		if min(cdf, 1) > alpha {
			return f - 1
		}
	}
	return n
}

// binomialCDF is P(Binomial(n, q) ≤ f).
func binomialCDF(f, n int, q float64) float64 {
	var sum float64
	for i := 0; i <= min(f, n); i++ {
		sum += binomialTerm(i, n, q)
	}
	return min(sum, 1)
}

// binomialTerm is P(Binomial(n, q) = i), from logarithms (at n in the
// thousands the plain product underflows).
func binomialTerm(i, n int, q float64) float64 {
	if q <= 0 || q >= 1 { // every episode alike: all succeed, or all fail
		if (q <= 0 && i == 0) || (q >= 1 && i == n) {
			return 1
		}
		return 0
	}
	lgn, _ := math.Lgamma(float64(n + 1))
	lgi, _ := math.Lgamma(float64(i + 1))
	lgr, _ := math.Lgamma(float64(n - i + 1))
	return math.Exp(lgn - lgi - lgr + float64(i)*math.Log(q) + float64(n-i)*math.Log1p(-q))
}

// lowerBound is the one-sided Clopper–Pearson lower bound of a solve rate
// at confidence 1−alpha, for successes of n: the rate p at which
// P(Binomial(n, 1−p) ≤ n−successes) = alpha (0 for n = 0, or when nothing
// succeeded). A level passes a test exactly when this is ≥ stop_at; the
// confirmation's line prints it.
func lowerBound(successes, n int, alpha float64) float64 {
	if n <= 0 || successes <= 0 {
		return 0
	}
	lo, hi := 0.0, 1.0
	for range 60 { // bisection: the CDF rises with p
		mid := (lo + hi) / 2
		if binomialCDF(n-successes, n, 1-mid) <= alpha {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

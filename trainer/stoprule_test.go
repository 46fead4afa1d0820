package trainer

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// binomialCDFByRecurrence is P(Binomial(n, q) ≤ f) by the terms'
// recurrence, a computation independent of stoprule.go's logarithms (fine
// for the n ≤ 10000 and q = 0.01 of these tests: no term underflows).
func binomialCDFByRecurrence(f, n int, q float64) float64 {
	term := math.Pow(1-q, float64(n))
	sum := term
	for i := 0; i < f && i < n; i++ {
		term *= float64(n-i) / float64(i+1) * q / (1 - q)
		sum += term
	}
	return sum
}

// TestConfirmTestSpendsAlphaOverTheRun: the k-th confirmation's level α_k
// sums to at most ConfirmAlpha however many confirmations a run makes;
// each test is exact (the most failures whose probability at a true rate
// of stop_at is ≤ α_k, and one more would exceed it); its size grows
// only as far as a level failing a fifth of what stop_at allows needs to
// pass half the time; its pass verdict and its printed lower bound agree;
// and the first confirmation is the old one-attempt rule's (1000
// episodes, the failures its 99% Wilson bound let pass).
func TestConfirmTestSpendsAlphaOverTheRun(t *testing.T) {
	const stopAt = 0.99
	var spent float64
	for k := 1; k <= 1_000_000; k++ {
		spent += confirmAlpha(k)
	}
	require.LessOrEqual(t, spent, ConfirmAlpha)
	require.Equal(t, confirmAlpha(7), confirmTestAt(7, stopAt).Alpha)
	prev := 0
	for k := 1; k <= 200; k++ {
		ct := confirmTestAt(k, stopAt)
		require.GreaterOrEqual(t, ct.Episodes, prev, "k=%d: a later confirmation is never smaller", k)
		require.LessOrEqual(t, ct.Episodes, MaxConfirmEpisodes)
		prev = ct.Episodes
		require.GreaterOrEqual(t, ct.MaxFailures, 0, "k=%d: some outcome passes", k)
		require.LessOrEqual(t, binomialCDFByRecurrence(ct.MaxFailures, ct.Episodes, 1-stopAt), ct.Alpha, "k=%d", k)
		require.Greater(t, binomialCDFByRecurrence(ct.MaxFailures+1, ct.Episodes, 1-stopAt), ct.Alpha, "k=%d", k)
		require.GreaterOrEqual(t, binomialCDFByRecurrence(ct.MaxFailures, ct.Episodes, (1-stopAt)/5), 0.5, "k=%d", k)
		if ct.Episodes > ConfirmEpisodes {
			smaller := ct.Episodes - ConfirmStep
			f := maxFailures(smaller, stopAt, ct.Alpha)
			require.True(t, f < 0 || binomialCDFByRecurrence(f, smaller, (1-stopAt)/5) < 0.5, "k=%d: %d episodes were enough", k, smaller)
		}
		for s := ct.Episodes - ct.MaxFailures - 3; s <= ct.Episodes; s++ {
			require.Equal(t, ct.passes(s), lowerBound(s, ct.Episodes, ct.Alpha) >= stopAt, "k=%d, %d of %d", k, s, ct.Episodes)
		}
	}
	first := confirmTestAt(1, stopAt)
	require.Equal(t, ConfirmEpisodes, first.Episodes)
	require.Equal(t, oldRule().MaxFailures, first.MaxFailures)
	// A stop_at that not even MaxConfirmEpisodes perfect episodes support
	// passes nothing, on a confirmation of the smallest size.
	for _, k := range []int{1, 100} {
		ct := confirmTestAt(k, 0.9999)
		require.Equal(t, -1, ct.MaxFailures)
		require.Equal(t, ConfirmEpisodes, ct.Episodes)
		require.False(t, ct.passes(ct.Episodes))
		require.Less(t, lowerBound(MaxConfirmEpisodes, MaxConfirmEpisodes, ct.Alpha), 0.9999)
	}
	// At stop_at 1 only a perfect confirmation passes, at every k.
	for _, k := range []int{1, 2, 100} {
		require.Equal(t, confirmTest{Episodes: ConfirmEpisodes, Alpha: confirmTestAt(k, stopAt).Alpha, MaxFailures: 0}, confirmTestAt(k, 1))
	}
}

// oldRule is the one-attempt rule that the run's α replaced: 1000
// episodes at every confirmation, passing with the failures whose 99%
// Wilson lower bound is ≥ 0.99.
func oldRule() confirmTest {
	t := confirmTest{Episodes: ConfirmEpisodes, MaxFailures: -1}
	for wilsonLower(t.Episodes-(t.MaxFailures+1), t.Episodes, oldZ) >= 0.99 {
		t.MaxFailures++
	}
	return t
}

// simulatedStops plays runs of a level whose true solve rate is rate: each
// confirms up to confirmations times in a row, the k-th with test(k)'s
// episodes and failures allowed, and stops at the first that passes. It
// returns, per stopped run, the confirmation it stopped at. The failures
// are drawn as geometric gaps between them, so a confirmation costs
// MaxFailures+2 draws, not one per episode.
func simulatedStops(test func(k int) confirmTest, rate float64, runs, confirmations int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x57095))
	logSolve := math.Log(rate)
	tests := make([]confirmTest, confirmations+1)
	for k := 1; k <= confirmations; k++ {
		tests[k] = test(k)
	}
	var stops []int
	for range runs {
		for k := 1; k <= confirmations; k++ {
			ct := tests[k]
			pos, failures := -1, 0
			for failures <= ct.MaxFailures {
				// Episodes up to and including the next failure.
				pos += 1 + int(math.Floor(math.Log(1-rng.Float64())/logSolve))
				if pos >= ct.Episodes {
					break
				}
				failures++
			}
			if failures <= ct.MaxFailures {
				stops = append(stops, k)
				break
			}
		}
	}
	return stops
}

// TestStopRuleFalseStopsBoundedOverARun simulates the stop rule without
// training: a level whose true solve rate is 0.986, 0.980 or 0.989 (below
// stop_at 0.99) confirmed up to 100 times in a row stops at most 1% of
// 20,000 simulated runs, measured (the 99.9% upper bound of the simulated
// rate is below 1%), with the trainer's own tests (confirmTestAt); the
// old one-attempt rule does not (it stops 11% of the runs at 0.989), so the
// test can fail. Both simulations agree with the exact probabilities. A
// level at 0.998 still stops within a few confirmations.
func TestStopRuleFalseStopsBoundedOverARun(t *testing.T) {
	const (
		stopAt        = 0.99
		runs          = 20000
		confirmations = 100
		z             = 3.2905267314918945 // the standard normal's 99.95% quantile: a two-sided 99.9% interval
	)
	upper := func(stops int) float64 { return 1 - wilsonLower(runs-stops, runs, z) }
	lower := func(stops int) float64 { return wilsonLower(stops, runs, z) }
	rule := func(k int) confirmTest { return confirmTestAt(k, stopAt) }
	old := func(int) confirmTest { return oldRule() }
	oldFails := false
	for i, rate := range []float64{0.986, 0.980, 0.989} {
		stops := len(simulatedStops(rule, rate, runs, confirmations, uint64(i)))
		oldStops := len(simulatedStops(old, rate, runs, confirmations, uint64(i)))
		t.Logf("true rate %.3f, %d confirmations: false stops %d of %d runs (%.4f%%, ≤ %.4f%% at 99.9%%); the old rule %d (%.2f%%)",
			rate, confirmations, stops, runs, 100*float64(stops)/runs, 100*upper(stops), oldStops, 100*float64(oldStops)/runs)
		// The simulation agrees with the exact probability of a stop
		// within the confirmations (its sampler is right).
		for _, c := range []struct {
			test  func(int) confirmTest
			stops int
		}{{rule, stops}, {old, oldStops}} {
			exact := stopProbability(c.test, rate, confirmations)
			require.InDelta(t, exact, float64(c.stops)/runs, 4*math.Sqrt(exact*(1-exact)/runs)+1.0/runs, "true rate %.3f", rate)
		}
		require.LessOrEqual(t, upper(stops), 0.01, "true rate %.3f", rate)
		if lower(oldStops) > 0.01 {
			oldFails = true
		}
	}
	require.True(t, oldFails, "the old one-attempt rule must fail this test somewhere")

	for i, r := range []struct {
		name string
		test func(int) confirmTest
	}{{"the run's α", rule}, {"the old rule", old}} {
		at := simulatedStops(r.test, 0.998, runs, confirmations, 100+uint64(i))
		slices.Sort(at)
		median, p90 := at[len(at)/2], at[len(at)*9/10]
		t.Logf("true rate 0.998, %s: %d of %d runs stop within %d confirmations; median %d, 90th percentile %d, mean %.2f",
			r.name, len(at), runs, confirmations, median, p90, mean(at))
		require.Len(t, at, runs, "%s: every run at 0.998 stops", r.name)
		require.LessOrEqual(t, median, 2, r.name)
		require.LessOrEqual(t, p90, 4, r.name)
	}
}

// stopProbability is the exact probability that a level at true solve rate
// rate passes one of the first confirmations tests.
func stopProbability(test func(int) confirmTest, rate float64, confirmations int) float64 {
	never := 1.0
	for k := 1; k <= confirmations; k++ {
		ct := test(k)
		never *= 1 - binomialCDFByRecurrence(ct.MaxFailures, ct.Episodes, 1-rate)
	}
	return 1 - never
}

func mean(xs []int) float64 {
	var s float64
	for _, x := range xs {
		s += float64(x)
	}
	return s / float64(len(xs))
}

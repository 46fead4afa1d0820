package stats

// ScoreDistribution is the performance profile of m at each threshold
// tau: the fraction of all runs × tasks scores strictly above tau
// (Agarwal et al. 2021, section 4.1; rliable's run score distribution,
// np.mean(scores > tau)). It shows every seed, not an aggregate: a curve
// that stays high further right is better at every quantile at once.
func ScoreDistribution(m Scores, taus []float64) []float64 {
	flat := m.Flat()
	out := make([]float64, len(taus))
	if len(flat) == 0 {
		return out
	}
	for i, tau := range taus {
		n := 0
		for _, x := range flat {
			if x > tau {
				n++
			}
		}
		out[i] = float64(n) / float64(len(flat))
	}
	return out
}

// Taus is n+1 evenly spaced thresholds from lo to hi inclusive.
func Taus(lo, hi float64, n int) []float64 {
	if n < 1 {
		return []float64{lo}
	}
	out := make([]float64, n+1)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(n)
	}
	return out
}

package stats

import (
	"math"
	"slices"
)

// TrimMean is the mean of x after cutting off the int(cut·n) smallest and
// the int(cut·n) largest values, scipy.stats.trim_mean's semantics: when
// cut·n is not a whole number it cuts less, never a fraction of a value.
// NaN for an empty x or a cut that leaves nothing (cut ≥ 0.5).
func TrimMean(x []float64, cut float64) float64 {
	n := len(x)
	k := int(cut * float64(n))
	if n == 0 || cut < 0 || 2*k >= n {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return Mean(s[k : n-k])
}

// IQM is the interquartile mean of x: TrimMean(x, 0.25), the mean of the
// middle half. It is robust to outlying runs like the median and uses half
// the data like no median does (Agarwal et al. 2021, section 4). With n
// scores not a multiple of 4 it cuts int(n/4) from each side, as scipy and
// so rliable do: 5 scores keep the middle 3, 6 keep 4, 7 keep 5.
func IQM(x []float64) float64 {
	return TrimMean(x, 0.25)
}

// AggregateIQM is the IQM of every score of m, over runs and tasks
// together (rliable's aggregate_iqm: trim_mean over the flattened matrix).
func AggregateIQM(m Scores) float64 {
	return IQM(m.Flat())
}

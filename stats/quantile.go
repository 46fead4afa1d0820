package stats

import (
	"math"
	"slices"
)

// Quantile is the q-quantile of x by linear interpolation between order
// statistics (numpy.percentile's default, "linear": the value at position
// q·(n−1) of the sorted values). NaN when x is empty or q is outside [0, 1].
func Quantile(x []float64, q float64) float64 {
	if len(x) == 0 || !(q >= 0 && q <= 1) {
		return math.NaN()
	}
	s := slices.Clone(x)
	slices.Sort(s)
	return sortedQuantile(s, q)
}

// sortedQuantile is Quantile of an already sorted s.
func sortedQuantile(s []float64, q float64) float64 {
	h := q * float64(len(s)-1)
	lo := int(math.Floor(h))
	if lo >= len(s)-1 {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}

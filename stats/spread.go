package stats

import "math"

// StdDev is the sample standard deviation of x, with n−1 in the
// denominator (numpy's std with ddof=1): the spread over seeds that a
// new seed is drawn from. 0 for a single value, NaN when empty.
func StdDev(x []float64) float64 {
	switch len(x) {
	case 0:
		return math.NaN()
	case 1:
		return 0
	}
	mu := Mean(x)
	s := 0.0
	for _, v := range x {
		s += (v - mu) * (v - mu)
	}
	return math.Sqrt(s / float64(len(x)-1))
}

// Min is the smallest value of x (NaN when empty): the worst seed.
func Min(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	lo := x[0]
	for _, v := range x[1:] {
		lo = min(lo, v)
	}
	return lo
}

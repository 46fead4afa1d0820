package stats

import "math"

// Mean is the arithmetic mean of x (NaN when empty).
func Mean(x []float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// AggregateMean is the mean over tasks of each task's mean over runs
// (rliable's aggregate_mean); with every task run equally often it is the
// mean of all scores.
func AggregateMean(m Scores) float64 {
	if m.Runs() == 0 || m.Tasks() == 0 {
		return math.NaN()
	}
	s := 0.0
	for t := 0; t < m.Tasks(); t++ {
		s += Mean(m.Task(t))
	}
	return s / float64(m.Tasks())
}

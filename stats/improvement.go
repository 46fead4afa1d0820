package stats

import (
	"fmt"
	"math"
)

// ProbabilityOfImprovement is P(X > Y): the probability that a run of X
// scores higher than a run of Y on a task drawn at random, ties counting
// one half, averaged over the tasks (Agarwal et al. 2021, section 4.3;
// rliable's probability_of_improvement, which takes each task's
// Mann-Whitney U statistic over the runs_x·runs_y pairs). x and y are runs
// × tasks with the same tasks and any numbers of runs; NaN when they do not
// fit (checkPair says why).
func ProbabilityOfImprovement(x, y Scores) float64 {
	if checkPair(x, y) != nil {
		return math.NaN()
	}
	sum := 0.0
	for t := 0; t < x.Tasks(); t++ {
		sum += pairwiseWins(x.Task(t), y.Task(t))
	}
	return sum / float64(x.Tasks())
}

// pairwiseWins is the fraction of pairs (a from xs, b from ys) with a > b,
// a tie counting one half.
func pairwiseWins(xs, ys []float64) float64 {
	wins := 0.0
	for _, a := range xs {
		for _, b := range ys {
			switch {
			case a > b:
				wins++
			case a == b:
				wins += 0.5
			}
		}
	}
	return wins / float64(len(xs)*len(ys))
}

// checkPair refuses two matrices that are not comparable task by task.
func checkPair(x, y Scores) error {
	if err := x.Check(); err != nil {
		return fmt.Errorf("stats: the scores of X: %v", err)
	}
	if err := y.Check(); err != nil {
		return fmt.Errorf("stats: the scores of Y: %v", err)
	}
	if x.Tasks() != y.Tasks() {
		return fmt.Errorf("stats: X has %d tasks, Y %d", x.Tasks(), y.Tasks())
	}
	return nil
}

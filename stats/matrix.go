package stats

import (
	"errors"
	"fmt"
	"math"
)

// Scores is a runs × tasks matrix of scores: Scores[run][task]. Every run
// has a score on every task (rliable's layout; the stratified bootstrap
// resamples runs within each task).
type Scores [][]float64

// Column is a one-task matrix of the scores of runs.
func Column(runs []float64) Scores {
	m := make(Scores, len(runs))
	for i, x := range runs {
		m[i] = []float64{x}
	}
	return m
}

// Check reports what makes m unusable: no run, no task, runs of different
// lengths, or a score that is NaN or infinite.
func (m Scores) Check() error {
	if len(m) == 0 {
		return errors.New("stats: no runs")
	}
	tasks := len(m[0])
	if tasks == 0 {
		return errors.New("stats: no tasks")
	}
	for i, run := range m {
		if len(run) != tasks {
			return fmt.Errorf("stats: run %d has %d scores, run 0 has %d", i, len(run), tasks)
		}
		for j, x := range run {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("stats: run %d task %d: score %v", i, j, x)
			}
		}
	}
	return nil
}

// Runs is m's number of runs; Tasks its number of tasks.
func (m Scores) Runs() int { return len(m) }

// Tasks is the number of tasks (0 for a matrix without runs).
func (m Scores) Tasks() int {
	if len(m) == 0 {
		return 0
	}
	return len(m[0])
}

// Flat is every score, run after run.
func (m Scores) Flat() []float64 {
	out := make([]float64, 0, m.Runs()*m.Tasks())
	for _, run := range m {
		out = append(out, run...)
	}
	return out
}

// Task is task t's scores over the runs.
func (m Scores) Task(t int) []float64 {
	out := make([]float64, len(m))
	for i, run := range m {
		out[i] = run[t]
	}
	return out
}

package tasktest

import (
	"fmt"

	"github.com/simdrl/simdrl/task"
)

// ManyLevels is a stepping task (the seed task in the tests) with N levels,
// built anew at every Levels call, as a user's task may, counting the calls
// in *Calls: for the tests that bound the level count and how often a run
// reads it.
type ManyLevels struct {
	task.Task
	N     int
	Calls *int
}

func (m ManyLevels) Levels() []task.Level {
	*m.Calls++
	out := make([]task.Level, m.N)
	for i := range out {
		out[i] = task.Level{Name: fmt.Sprint("level ", i), Context: 3, Budget: 7, Shortest: 3}
	}
	return out
}

func (m ManyLevels) NewEnv(rows int) task.Env { return m.Task.(task.Stepper).NewEnv(rows) }

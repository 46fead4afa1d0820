package enginekit

import (
	"fmt"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// NewLayout is the parameter layout of a model of the given hidden width
// for task t: its vocabulary, one level embedding per level (one for an
// Unstaged task, task.Stages), its observation
// vocabulary (task.Observations: 0 for an open-loop task, whose layout is as
// before observations), its longest context (task.LongestContext, what a
// reading model reads: Config.Shown), and its context end (task.ContextEnd) as every
// rollout's first input; the same on every engine. A context end outside the
// vocabulary, or an observation count gru refuses, is an error.
func NewLayout(hidden int, t task.Task) (*gru.Layout, error) {
	if err := task.CheckFieldSpec(t); err != nil {
		return nil, err
	}
	fields := task.Fields(t) // a Fielded task's (task/fields.go); none for the others
	l, err := gru.NewLayout(gru.Config{Vocab: t.Vocab(), Hidden: hidden, Levels: task.Stages(t), NotActions: t.NotActions(),
		Observations: task.Observations(t), Shown: task.LongestContext(t), Fields: fields.Sizes, Vector: fields.Vector})
	if err != nil && (task.Observations(t) != 0 || task.IsFielded(t)) {
		return nil, fmt.Errorf("task %s: %v", t.Name(), err)
	} else if err != nil {
		return nil, err
	}
	end := task.ContextEnd(t)
	if end < 0 || int(end) >= t.Vocab() {
		return nil, fmt.Errorf("task %s: its context end (ContextEnd) %d is outside its vocabulary (0..%d)", t.Name(), end, t.Vocab()-1)
	}
	if err := l.SetStart(end); err != nil {
		return nil, err
	}
	return l, nil
}

package enginekit

import (
	"fmt"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// NewLayout is the parameter layout of a model of the given hidden width
// for task t: its vocabulary, one level embedding per level, and its context
// end (task.ContextEnd) as every rollout's first input; the same on every
// engine. A context end outside the vocabulary is refused.
func NewLayout(hidden int, t task.Task) (*gru.Layout, error) {
	l, err := gru.NewLayout(gru.Config{Vocab: t.Vocab(), Hidden: hidden, Levels: len(t.Levels()), NotActions: t.NotActions()})
	if err != nil {
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

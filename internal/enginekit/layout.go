package enginekit

import (
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// NewLayout is the parameter layout of a model of the given hidden width
// for task t: its vocabulary and one level embedding per level; the same on
// every engine.
func NewLayout(hidden int, t task.Task) (*gru.Layout, error) {
	return gru.NewLayout(gru.Config{Vocab: t.Vocab(), Hidden: hidden, Levels: len(t.Levels()), NotActions: t.NotActions()})
}

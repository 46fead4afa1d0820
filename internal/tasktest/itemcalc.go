// Package tasktest holds tasks that tests of several packages share.
package tasktest

import (
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// ItemCalc is a calc task whose levels are sets of three items (labels on
// the level's one expression): a task.Itemized for the engines' and the
// trainer's item and replay paths without the expr task. Verify accepts
// what Verified says, or every program when Verified is nil.
type ItemCalc struct {
	task.Task
	Verified func(in *task.Instance, program []int32) bool
}

// NewItemCalc is ItemCalc on the calc task of spec (task.Open's).
func NewItemCalc(spec string, verified func(in *task.Instance, program []int32) bool) (ItemCalc, error) {
	c, err := task.Open("calc", spec)
	if err != nil {
		return ItemCalc{}, err
	}
	return ItemCalc{Task: c, Verified: verified}, nil
}

// Items is 3 for the training and held-out splits of every level, 0 for
// the transfer split.
func (ItemCalc) Items(level int, split task.Split) int {
	if split == task.Transfer {
		return 0
	}
	return 3
}

// DrawItem is the calc task's draw, labelled item.
func (t ItemCalc) DrawItem(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split, item int) task.Instance {
	in := t.Task.Draw(key, round, episode, purpose, level, split)
	in.Item = int32(item)
	return in
}

// Verify is Verified's verdict (true without one).
func (t ItemCalc) Verify(in *task.Instance, program []int32) bool {
	return t.Verified == nil || t.Verified(in, program)
}

// Score and Explain are the calc task's, which task.Task hides: an
// ItemCalc is stepped by scoring (task.NewEnv), as calc's own Env is not
// seen either.
func (t ItemCalc) Score(in *task.Instance, program []int32) task.Outcome {
	return task.Score(t.Task, in, program)
}

func (t ItemCalc) Explain(in *task.Instance, program []int32) task.Explanation {
	return task.Explain(t.Task, in, program)
}

package countdowntask

import (
	"github.com/simdrl/simdrl/env/game24"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// The 24 Game's splits are finite sets of hands, so the game24 task is
// Itemized (task.Itemized): an item is a hand of its split, in the split's
// order, and each hand is its item's only instance. The trainer can then
// draw the training hands the policy still fails more often (-item-focus),
// as it draws the expr task's expressions; without the flag the draws are
// the task's Draw, uniform over the split's hands, as before.
type handTask struct{ *poolTask }

// splitHands is split's hands (HeldOut: the held-out multisets), none for
// Transfer.
func splitHands(split task.Split) []game24.Hand {
	switch split {
	case task.Training:
		return hands().Training
	case task.HeldOut:
		return hands().HeldOut
	}
	return nil
}

// Items is how many hands split holds.
func (t handTask) Items(level int, split task.Split) int {
	if level != 0 {
		return 0
	}
	return len(splitHands(split))
}

// DrawItem is hand item of split: the key and counters draw nothing, as
// the hand is its item's only instance.
func (t handTask) DrawItem(_ rng.Key, _, _ uint32, _ rng.Purpose, level int, split task.Split, item int) task.Instance {
	hs := splitHands(split)
	if level != 0 || item < 0 || item >= len(hs) {
		return task.Instance{} // refused by the engine's check: not an instance of the task's
	}
	return t.handInstance(hs, item)
}

// handInstance is hand i of hs (a split's hands), naming its item.
func (t *poolTask) handInstance(hs []game24.Hand, i int) task.Instance {
	in := instance(hs[i][:], game24.Target, t.budget)
	in.Item = int32(i)
	return in
}

// Verify reports whether program, played from in's pool, solves it.
func (t handTask) Verify(in *task.Instance, program []int32) bool {
	return task.Score(t, in, program).Correct
}

// poolOf is tk's pool task, whether tk is one or its 24 Game's handTask.
func poolOf(tk task.Task) (*poolTask, bool) {
	switch t := tk.(type) {
	case *poolTask:
		return t, true
	case handTask:
		return t.poolTask, true
	}
	return nil, false
}

var _ task.Itemized = handTask{}

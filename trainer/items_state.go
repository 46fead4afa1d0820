package trainer

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// itemsKey is the checkpoint metadata key of the item focus and the replay
// buffer, present only in runs that have them (Config.ItemFocus,
// Config.Replay): a checkpoint of any other run is as before.
const itemsKey = "items"

// itemsState is what a checkpoint keeps of them, so that a resumed run
// draws the same items and replays the same programs.
type itemsState struct {
	Fail   [][]float64    `json:"item_fail"`     // [level][item], Config.ItemFocus; null without
	Replay []*replayEntry `json:"replay_buffer"` // in the buffer's order, Config.Replay; null without
}

// saveItems writes the trainer's item state into f.
func (tr *Trainer) saveItems(f *checkpoint.File) {
	if tr.focus == nil && tr.replay == nil {
		return
	}
	var st itemsState
	if tr.focus != nil {
		st.Fail = tr.focus.fail
	}
	if tr.replay != nil {
		st.Replay = tr.replay.order
	}
	raw, _ := json.Marshal(st)
	f.Metadata[itemsKey] = string(raw)
}

// itemsRestorer checks f's item state against the run and returns the
// function that applies it (nothing is changed before every check passed).
func (tr *Trainer) itemsRestorer(f *checkpoint.File) (func(), error) {
	raw, ok := f.Metadata[itemsKey]
	if tr.focus == nil && tr.replay == nil {
		if ok {
			return nil, fmt.Errorf("checkpoint has an item state (metadata key %q) but its config has neither replay nor item_focus", itemsKey)
		}
		return func() {}, nil
	}
	if !ok {
		return nil, fmt.Errorf("checkpoint has no item state (metadata key %q), which its config's replay or item_focus needs", itemsKey)
	}
	var st itemsState
	if err := decodeStrict(raw, &st, nil, nil); err != nil {
		return nil, fmt.Errorf("checkpoint item state: %v", err)
	}
	var focus *itemFocus
	if tr.focus != nil {
		if len(st.Fail) != len(tr.focus.fail) {
			return nil, fmt.Errorf("checkpoint item state: item_fail has %d levels, want %d", len(st.Fail), len(tr.focus.fail))
		}
		focus = &itemFocus{fail: st.Fail, cdf: tr.focus.cdf}
		for lv, fail := range st.Fail {
			if len(fail) != len(tr.focus.fail[lv]) {
				return nil, fmt.Errorf("checkpoint item state: item_fail[%d] has %d items, want %d", lv, len(fail), len(tr.focus.fail[lv]))
			}
			for i, x := range fail {
				if !(x >= 0 && x <= 1) {
					return nil, fmt.Errorf("checkpoint item state: item_fail[%d][%d] %v is out of range 0..1", lv, i, x)
				}
			}
		}
	} else if st.Fail != nil {
		return nil, fmt.Errorf("checkpoint item state: item_fail given, but the config has no item_focus")
	}
	var buf *replayBuffer
	if b := tr.replay; b != nil {
		buf = newReplayBuffer(b.t, b.steps, 0)
		buf.replays = b.replays // an update's scratch, not state: kept, not built again beside it
		for k, e := range st.Replay {
			if err := buf.check(e, tr.key); err != nil {
				return nil, fmt.Errorf("checkpoint item state: replay_buffer[%d]: %v", k, err)
			}
			if buf.best[e.Level][e.Item] != nil {
				return nil, fmt.Errorf("checkpoint item state: replay_buffer[%d]: level %d item %d appears twice", k, e.Level, e.Item)
			}
			buf.best[e.Level][e.Item] = e
			buf.order = append(buf.order, e)
		}
	} else if st.Replay != nil {
		return nil, fmt.Errorf("checkpoint item state: replay_buffer given, but the config has no replay")
	}
	return func() {
		if focus != nil {
			tr.focus = focus
			tr.focus.refresh()
		}
		if buf != nil {
			tr.replay = buf
		}
	}, nil
}

// check refuses an entry that is not a program of this run's task for one
// of its training items, verified as observe verifies an episode's: made of
// actions the policy may write, solving every instance of its item
// (Itemized.Verify, on an instance drawn from key), with a reward the task
// can give such a program (a crafted one would be replayed, and a reward
// above the task's would never be replaced).
func (b *replayBuffer) check(e *replayEntry, key rng.Key) error {
	switch {
	case e == nil:
		return fmt.Errorf("null")
	case e.Level < 0 || e.Level >= len(b.best):
		return fmt.Errorf("level %d out of range 0..%d", e.Level, len(b.best)-1)
	case e.Item < 0 || e.Item >= len(b.best[e.Level]):
		return fmt.Errorf("item %d out of range 0..%d of level %d", e.Item, len(b.best[e.Level])-1, e.Level)
	case len(e.Program) != b.steps:
		return fmt.Errorf("program of %d tokens, want %d (the rollout's steps)", len(e.Program), b.steps)
	case e.Length < 1 || e.Length > b.steps || e.Length != b.length(e.Program):
		return fmt.Errorf("length %d disagrees with its program", e.Length)
	}
	notActions := b.t.NotActions()
	for i, a := range e.Program {
		if a < 0 || int(a) >= b.t.Vocab() {
			return fmt.Errorf("token %d outside the vocabulary 0..%d", a, b.t.Vocab()-1)
		}
		if slices.Contains(notActions, a) {
			return fmt.Errorf("token %d (%s) at %d is not an action the policy may write", a, b.t.TokenName(a), i)
		}
	}
	in := b.t.DrawItem(key, 0, 0, rng.PurposeReplayTask, e.Level, task.Training, e.Item)
	if !b.t.Verify(&in, e.Program[:e.Length]) {
		return fmt.Errorf("the program does not solve level %d item %d", e.Level, e.Item)
	}
	if lo, hi, ok := solvedRewards(b.t); !(e.Reward >= lo && e.Reward <= hi) {
		if ok {
			return fmt.Errorf("reward %v is out of range %v..%v (a program that solves its item)", e.Reward, lo, hi)
		}
		return fmt.Errorf("reward %v is not a finite number", e.Reward)
	}
	return nil
}

// solvedRewards is the range of rewards t gives a program that solves its
// instance: on the calculator's machine (task.Interpreted) 1 and the partial
// credit for the inner values held; for another task any finite number
// (ok false).
func solvedRewards(t task.Task) (lo, hi float64, ok bool) {
	if it, ok := t.(task.Interpreted); ok {
		c := it.PartialCredit()
		return 1 + min(c, 0), 1 + max(c, 0), true
	}
	return -math.MaxFloat64, math.MaxFloat64, false
}

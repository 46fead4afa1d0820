package trainer

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// The item focus and the replay buffer, present only in runs that have
// them (Config.ItemFocus, Config.Replay), so that a resumed run draws the
// same items and replays the same programs. They grow with the task (a
// user's task may have tens of millions of items), so they are tensors
// (format 2): the header stays small and every file a run writes reads back.
// A checkpoint of any other run is as before (format 1). Format 1 kept them
// as JSON in the metadata key itemsKey, which still reads.
const (
	itemsFormat   = "simdrl-checkpoint/2"
	itemsKey      = "items"                       // format 1's metadata key
	itemsPrefix   = "items."                      // every item tensor's name starts so
	itemFailName  = "items.item_fail"             // F64 [items]: the failure rates, level after level
	replayItem    = "items.replay_buffer.item"    // I64 [entries, 2]: each entry's level and item
	replayProgram = "items.replay_buffer.program" // I32 [entries, steps]
	replayReward  = "items.replay_buffer.reward"  // F64 [entries]
	replayLength  = "items.replay_buffer.length"  // I64 [entries]
)

// itemsState is what a checkpoint keeps of them (format 1's JSON names).
type itemsState struct {
	Fail   [][]float64    `json:"item_fail"`     // [level][item], Config.ItemFocus; null without
	Replay []*replayEntry `json:"replay_buffer"` // in the buffer's order, Config.Replay; null without
}

// saveItems writes the trainer's item state into f, as tensors.
func (tr *Trainer) saveItems(f *checkpoint.File) {
	if tr.focus == nil && tr.replay == nil {
		return
	}
	f.Metadata["format"] = itemsFormat
	if tr.focus != nil {
		total := 0
		for _, fail := range tr.focus.fail {
			total += len(fail)
		}
		flat := make([]float64, 0, total)
		for _, fail := range tr.focus.fail {
			flat = append(flat, fail...)
		}
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: itemFailName, Shape: []int{len(flat)}, DType: checkpoint.F64, F64: flat})
	}
	if tr.replay != nil {
		f.Tensors = append(f.Tensors, replayTensors(tr.replay.order, tr.replay.steps)...)
	}
}

// replayTensors are the replay buffer's entries as tensors.
func replayTensors(entries []*replayEntry, steps int) []checkpoint.Tensor {
	n := len(entries)
	item, program := make([]int64, 0, 2*n), make([]int32, 0, n*steps)
	reward, length := make([]float64, 0, n), make([]int64, 0, n)
	for _, e := range entries {
		item = append(item, int64(e.Level), int64(e.Item))
		program = append(program, e.Program...)
		reward, length = append(reward, e.Reward), append(length, int64(e.Length))
	}
	return []checkpoint.Tensor{
		{Name: replayItem, Shape: []int{n, 2}, DType: checkpoint.I64, I64: item},
		{Name: replayProgram, Shape: []int{n, steps}, DType: checkpoint.I32, I32: program},
		{Name: replayReward, Shape: []int{n}, DType: checkpoint.F64, F64: reward},
		{Name: replayLength, Shape: []int{n}, DType: checkpoint.I64, I64: length},
	}
}

// isItemTensor reports whether name is one of the item state's tensors
// (readItems checks them; the model's checks pass them by).
func isItemTensor(name string) bool { return strings.HasPrefix(name, itemsPrefix) }

// readItems decodes f's item state, from its tensors or format 1's JSON,
// checking its structure: every item tensor known, of its dtype and shape,
// the replay buffer's four tensors all there or none. items is the number
// of training items of each level the run has (nil: unknown, the failure
// rates come back as one level), steps the rollout's (0: unknown). It
// returns nil when f has no item state.
func readItems(f *checkpoint.File, items []int, steps int) (*itemsState, error) {
	raw, inMetadata := f.Metadata[itemsKey]
	tensors := map[string]checkpoint.Tensor{}
	for _, t := range f.Tensors {
		if !isItemTensor(t.Name) {
			continue
		}
		switch t.Name {
		case itemFailName, replayItem, replayProgram, replayReward, replayLength:
			tensors[t.Name] = t
		default:
			return nil, fmt.Errorf("checkpoint has an unexpected tensor %q (not one of the item state's)", t.Name)
		}
	}
	switch {
	case inMetadata && len(tensors) > 0:
		return nil, fmt.Errorf("checkpoint has its item state twice: in the metadata key %q and as tensors", itemsKey)
	case inMetadata:
		var st itemsState
		if err := decodeStrict(raw, &st, nil, nil); err != nil {
			return nil, fmt.Errorf("checkpoint item state: %v", err)
		}
		return &st, nil
	case len(tensors) == 0:
		return nil, nil
	}
	st := &itemsState{}
	if t, ok := tensors[itemFailName]; ok {
		if err := tensorIs(t, checkpoint.F64, -1); err != nil {
			return nil, err
		}
		total := 0
		for _, n := range items {
			total += n
		}
		if items == nil {
			items, total = []int{len(t.F64)}, len(t.F64)
		}
		if len(t.F64) != total {
			return nil, fmt.Errorf("checkpoint item state: item_fail has %d items, want %d (the task's training items)", len(t.F64), total)
		}
		for _, n := range items {
			st.Fail = append(st.Fail, t.F64[:n:n])
			t.F64 = t.F64[n:]
		}
	}
	item, okItem := tensors[replayItem]
	program, okProgram := tensors[replayProgram]
	reward, okReward := tensors[replayReward]
	length, okLength := tensors[replayLength]
	if !okItem && !okProgram && !okReward && !okLength {
		return st, nil
	}
	if !okItem || !okProgram || !okReward || !okLength {
		return nil, fmt.Errorf("checkpoint item state: the replay buffer needs the tensors %s, %s, %s and %s; some are missing", replayItem, replayProgram, replayReward, replayLength)
	}
	n := len(reward.F64)
	if err := tensorIs(reward, checkpoint.F64, -1); err != nil {
		return nil, err
	}
	if err := tensorIs(length, checkpoint.I64, n); err != nil {
		return nil, err
	}
	if err := tensorIs(item, checkpoint.I64, n, 2); err != nil {
		return nil, err
	}
	if steps == 0 && len(program.Shape) == 2 {
		steps = program.Shape[1]
	}
	if err := tensorIs(program, checkpoint.I32, n, steps); err != nil {
		return nil, err
	}
	st.Replay = make([]*replayEntry, n)
	entries := make([]replayEntry, n)
	for k := range entries {
		e := &entries[k]
		e.Level, e.Item = int(item.I64[2*k]), int(item.I64[2*k+1])
		e.Program = program.I32[k*steps : (k+1)*steps : (k+1)*steps]
		e.Reward, e.Length = reward.F64[k], int(length.I64[k])
		st.Replay[k] = e
	}
	return st, nil
}

// tensorIs refuses t unless it has dtype d and the shape dims (−1: any
// length of a vector).
func tensorIs(t checkpoint.Tensor, d checkpoint.DType, dims ...int) error {
	ok := t.Type() == d && len(t.Shape) == len(dims)
	for i := range dims {
		ok = ok && (dims[i] < 0 || t.Shape[i] == dims[i])
	}
	if !ok {
		want := make([]string, len(dims))
		for i, n := range dims {
			want[i] = "n"
			if n >= 0 {
				want[i] = strconv.Itoa(n)
			}
		}
		return fmt.Errorf("checkpoint tensor %s is %s %v, want %s [%s]", t.Name, t.Type(), t.Shape, d, strings.Join(want, " "))
	}
	return nil
}

// itemsRestorer checks f's item state against the run and returns the
// function that applies it (nothing is changed before every check passed).
func (tr *Trainer) itemsRestorer(f *checkpoint.File) (func(), error) {
	focus, buf, err := checkItems(f, tr.focus, tr.replay, tr.key)
	if err != nil {
		return nil, err
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

// checkItems checks f's item state against a run whose item focus and
// replay buffer are focus and replay (nil: the run has none) and returns
// those the state restores (nil where the run has none), checked entry by
// entry.
func checkItems(f *checkpoint.File, focus *itemFocus, replay *replayBuffer, key rng.Key) (*itemFocus, *replayBuffer, error) {
	var items []int
	steps := 0
	switch {
	case focus != nil:
		for _, fail := range focus.fail {
			items = append(items, len(fail))
		}
	case replay != nil:
		for _, best := range replay.best {
			items = append(items, len(best))
		}
	}
	if replay != nil {
		steps = replay.steps
	}
	st, err := readItems(f, items, steps)
	if err != nil {
		return nil, nil, err
	}
	if focus == nil && replay == nil {
		if st != nil {
			return nil, nil, fmt.Errorf("checkpoint has an item state but its config has neither replay nor item_focus")
		}
		return nil, nil, nil
	}
	if st == nil {
		return nil, nil, fmt.Errorf("checkpoint has no item state (tensors %s…, or format 1's metadata key %q), which its config's replay or item_focus needs", itemsPrefix, itemsKey)
	}
	var restored *itemFocus
	if focus != nil {
		if len(st.Fail) != len(focus.fail) {
			return nil, nil, fmt.Errorf("checkpoint item state: item_fail has %d levels, want %d", len(st.Fail), len(focus.fail))
		}
		restored = &itemFocus{fail: st.Fail, cdf: focus.cdf}
		for lv, fail := range st.Fail {
			if len(fail) != len(focus.fail[lv]) {
				return nil, nil, fmt.Errorf("checkpoint item state: item_fail[%d] has %d items, want %d", lv, len(fail), len(focus.fail[lv]))
			}
			for i, x := range fail {
				if !(x >= 0 && x <= 1) {
					return nil, nil, fmt.Errorf("checkpoint item state: item_fail[%d][%d] %v is out of range 0..1", lv, i, x)
				}
			}
		}
	} else if st.Fail != nil {
		return nil, nil, fmt.Errorf("checkpoint item state: item_fail given, but the config has no item_focus")
	}
	var buf *replayBuffer
	if b := replay; b != nil {
		buf = newReplayBuffer(b.t, b.steps, 0)
		buf.replays = b.replays // an update's scratch, not state: kept, not built again beside it
		for k, e := range st.Replay {
			if err := buf.check(e, key); err != nil {
				return nil, nil, fmt.Errorf("checkpoint item state: replay_buffer[%d]: %v", k, err)
			}
			if buf.best[e.Level][e.Item] != nil {
				return nil, nil, fmt.Errorf("checkpoint item state: replay_buffer[%d]: level %d item %d appears twice", k, e.Level, e.Item)
			}
			buf.best[e.Level][e.Item] = e
			buf.order = append(buf.order, e)
		}
	} else if st.Replay != nil {
		return nil, nil, fmt.Errorf("checkpoint item state: replay_buffer given, but the config has no replay")
	}
	return restored, buf, nil
}

// checkLoadedItems checks, for LoadWeights, the item state f holds (if
// any) as Restore would check it in a run of f's own config cfg on its task
// t; without them (nil: the config does not read), its structure and the
// failure rates' and rewards' ranges only.
func checkLoadedItems(f *checkpoint.File, cfg *Config, t task.Task) error {
	if !hasItemState(f) {
		return nil // -load takes a file without one: weights only
	}
	if cfg != nil {
		var focus *itemFocus
		var replay *replayBuffer
		if it, ok := t.(task.Itemized); ok && cfg.ItemFocus {
			focus = newItemFocus(it)
		}
		if it, ok := t.(task.Itemized); ok && cfg.Replay > 0 {
			replay = newReplayBuffer(it, cfg.Steps, 0)
		}
		_, _, err := checkItems(f, focus, replay, rng.NewKey(cfg.Seed))
		return err
	}
	st, err := readItems(f, nil, 0)
	if err != nil || st == nil {
		return err
	}
	for lv, fail := range st.Fail {
		for i, x := range fail {
			if !(x >= 0 && x <= 1) {
				return fmt.Errorf("checkpoint item state: item_fail[%d][%d] %v is out of range 0..1", lv, i, x)
			}
		}
	}
	for k, e := range st.Replay {
		if e == nil || math.IsNaN(e.Reward) || math.IsInf(e.Reward, 0) {
			return fmt.Errorf("checkpoint item state: replay_buffer[%d]: null or a reward that is not a finite number", k)
		}
	}
	return nil
}

// hasItemState reports whether f holds an item state, in either format.
func hasItemState(f *checkpoint.File) bool {
	if _, ok := f.Metadata[itemsKey]; ok {
		return true
	}
	return slices.ContainsFunc(f.Tensors, func(t checkpoint.Tensor) bool { return isItemTensor(t.Name) })
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
	return b.checkReward(e, &in)
}

// checkReward refuses a reward the task cannot pay e's program (crafted,
// it would never be replaced by a better program): on the calculator's
// machine (task.Interpreted), one outside 1 and the partial credit for the
// inner values held; on another task, one above what it pays the program on
// in, the instance it was verified on (task.Score), or above 1, the most a
// task pays that says nothing of its rewards (task.RewardNoter); a lower
// reward is one a task may pay on another instance, and is soon replaced.
// Both to the rounding of the engines, which sum an episode's rewards in
// float32.
func (b *replayBuffer) checkReward(e *replayEntry, in *task.Instance) error {
	r := e.Reward
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return fmt.Errorf("reward %v is not a finite number", r)
	}
	if it, ok := b.t.(task.Interpreted); ok {
		c := it.PartialCredit()
		lo, hi := 1+min(c, 0), 1+max(c, 0)
		if r < lo-float32Slack(lo) || r > hi+float32Slack(hi) {
			return fmt.Errorf("reward %v is out of range %v..%v (a program that solves its item)", r, lo, hi)
		}
		return nil
	}
	pays := max(1, task.Score(b.t, in, e.Program[:e.Length]).Reward)
	if r > pays+float32Slack(pays) {
		return fmt.Errorf("reward %v is more than the %s task pays this program (%v)", r, b.t.Name(), pays)
	}
	return nil
}

// float32Slack is how far an engine's reward may lie from x, the exact sum:
// float32's rounding of up to MaxSteps rewards.
func float32Slack(x float64) float64 {
	return 1e-4 * max(1, math.Abs(x))
}

package trainer

import (
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// replayBuffer keeps, for every training item of a task.Itemized task, the
// best program any sampled episode found for it (the highest reward, then
// the fewest tokens up to the answer), once the task verified that it solves
// every instance of the item (Itemized.Verify), and replays Config.Replay of
// them into every update as a log-likelihood term (Plan.Replay): the
// memory-augmented policy optimisation of MAPO (Liang et al., NeurIPS 2018)
// and the priority-queue training of Abolafia et al. (2018), in their
// simplest form. The policy's own successes, which a rare exploration finds
// once, are so learned from instead of forgotten at the next update.
type replayBuffer struct {
	t       task.Itemized
	answer  int32
	steps   int
	best    [][]*replayEntry // [level][item]
	order   []*replayEntry   // the filled entries, in the order they were first found
	replays []task.Episode   // the update's Plan.Replay, reused
}

// replayEntry is one item's best verified program.
type replayEntry struct {
	Level   int     `json:"level"`
	Item    int     `json:"item"`
	Program []int32 `json:"program"` // Steps long, ANS-padded
	Reward  float64 `json:"reward"`
	Length  int     `json:"length"` // tokens up to and including the answer
}

func newReplayBuffer(t task.Itemized, steps, replay int) *replayBuffer {
	b := &replayBuffer{t: t, answer: t.Answer(), steps: steps, replays: make([]task.Episode, replay)}
	for lv := range t.Levels() {
		b.best = append(b.best, make([]*replayEntry, max(t.Items(lv, task.Training), 0)))
	}
	for i := range b.replays {
		b.replays[i].Program = make([]int32, steps)
	}
	return b
}

// observe offers an update's correct episodes to the buffer.
func (b *replayBuffer) observe(eps []task.Episode) {
	for i := range eps {
		ep := &eps[i]
		lv, it := int(ep.Instance.Level), int(ep.Instance.Item)
		if !ep.Correct || lv < 0 || lv >= len(b.best) || it < 0 || it >= len(b.best[lv]) {
			continue
		}
		n := b.length(ep.Program)
		old := b.best[lv][it]
		if old != nil && (ep.Reward < old.Reward || ep.Reward == old.Reward && n >= old.Length) {
			continue
		}
		if !b.t.Verify(&ep.Instance, ep.Program[:n]) {
			continue // right on these operands by chance only
		}
		if old == nil {
			old = &replayEntry{Level: lv, Item: it, Program: make([]int32, b.steps)}
			b.best[lv][it] = old
			b.order = append(b.order, old)
		}
		old.Reward, old.Length = ep.Reward, n
		copy(old.Program, ep.Program[:n])
		for s := n; s < b.steps; s++ {
			old.Program[s] = b.answer
		}
	}
}

// length is the program's tokens up to its first answer, inclusive (all of
// them if it never answers).
func (b *replayBuffer) length(p []int32) int {
	for i, a := range p {
		if a == b.answer {
			return i + 1
		}
	}
	return len(p)
}

// draw is update u's replayed episodes: Config.Replay entries drawn
// uniformly (with replacement) from the buffer, each on a fresh instance of
// its item, from the counter-based stream; nil while the buffer is empty.
func (b *replayBuffer) draw(key rng.Key, u int) []task.Episode {
	if len(b.order) == 0 {
		return nil
	}
	for r := range b.replays {
		w := key.Block(uint32(u), uint32(r), 0, rng.PurposeReplay)
		e := b.order[rng.Below(w[0], uint32(len(b.order)))]
		b.replays[r].Instance = b.t.DrawItem(key, uint32(u), uint32(r), rng.PurposeReplayTask, e.Level, task.Training, e.Item)
		copy(b.replays[r].Program, e.Program)
	}
	return b.replays
}

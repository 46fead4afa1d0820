package taskkit

import (
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// Splits are an itemized task's items (task.Itemized), per level and per
// split (Training, HeldOut, Transfer): the expr and tape tasks' members.
type Splits[M any] [][3][]M

// Count is how many items level has in split (0 for a level or split the
// task does not have): task.Itemized.Items.
func (s Splits[M]) Count(level int, split task.Split) int {
	if level < 0 || level >= len(s) || split < task.Training || split > task.Transfer {
		return 0
	}
	return len(s[level][split])
}

// Drawn is the split an instance of level is drawn from: split, or when
// split has no items there the first of Training, HeldOut and Transfer
// that has (a length split's largest size has only transfer items, an
// expressions split none), so that a draw always gives a valid instance;
// the trainer never asks for such a draw.
func (s Splits[M]) Drawn(level int, split task.Split) task.Split {
	if s.Count(level, split) > 0 {
		return split
	}
	for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
		if len(s[level][sp]) > 0 {
			return sp
		}
	}
	return task.Training // unreachable: every size has members
}

// Draw draws an item of level uniformly from split's (Drawn's) from step 0
// of the counter-based stream, and returns that split and the item's index.
func (s Splits[M]) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) (task.Split, int) {
	split = s.Drawn(level, split)
	w := key.Block(round, episode, 0, purpose)
	return split, int(Below(w[0], w[1], uint64(len(s[level][split]))))
}

// Item is item of level in split's (Drawn's) items; another index panics,
// as an index out of range does.
func (s Splits[M]) Item(level int, split task.Split, item int) M {
	return s[level][s.Drawn(level, split)][item]
}

package task_test

import (
	"fmt"
	"hash/fnv"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// A task's Draw holds a fifth of its two-digit items out: it draws from the
// counter-based stream until the item is in the split asked for (a pure
// function of the counters, so every run draws the same), and says
// HoldsOut() true.
func ExampleIsHeldOut() {
	h := fnv.New64a()
	h.Write([]byte("a+b")) // the level's name: its split survives a reordered curriculum
	salt := h.Sum64()
	draw := func(key rng.Key, episode uint32, split task.Split) uint64 {
		for try := uint32(0); ; try++ { // a split of 100 items is never empty; bound the tries for a small one
			item := uint64(key.Block(0, episode, try, 0)[0] % 100)
			if task.IsHeldOut(salt, item) == (split == task.HeldOut) {
				return item
			}
		}
	}
	key := rng.NewKey(0)
	for episode := range uint32(4) {
		tr, ho := draw(key, episode, task.Training), draw(key, episode, task.HeldOut)
		fmt.Println(tr, task.IsHeldOut(salt, tr), ho, task.IsHeldOut(salt, ho))
	}
	// Output:
	// 30 false 7 true
	// 33 false 39 true
	// 51 false 90 true
	// 6 false 12 true
}

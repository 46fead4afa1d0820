package countdowntask

import (
	"testing"

	"github.com/simdrl/simdrl/env/game24"
	"github.com/simdrl/simdrl/task"
)

// BenchmarkBuild is what a start builds: Countdown's listed evaluation
// sets (1,000 draws of each split) and the 24 Game's split (every hand
// solved). Under a second each, so nothing is cached (issue 53, item 4).
func BenchmarkBuild(b *testing.B) {
	for _, name := range []string{"countdown3", "countdown4"} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				tk, err := open(kindOf(name), "")
				if err != nil {
					b.Fatal(err)
				}
				tk.(*poolTask).Instances(0, task.HeldOut, 0)
			}
		})
	}
	b.Run("game24", func(b *testing.B) {
		for range b.N {
			game24.NewSplit()
		}
	})
}

func kindOf(name string) kind {
	for _, k := range kinds {
		if k.name == name {
			return k
		}
	}
	panic(name)
}

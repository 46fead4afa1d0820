package countdowntask

import (
	"testing"

	"github.com/simdrl/simdrl/env/game24"
)

// BenchmarkBuild is what a start builds: Countdown's listed evaluation
// sets (1,000 draws of each split) drawn, or read from the cache and
// verified (cache.go), and the 24 Game's split (every hand solved).
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{3, 4} {
		name := map[int]string{3: "countdown3", 4: "countdown4"}[n]
		b.Run(name+"/draw", func(b *testing.B) {
			for range b.N {
				drawListing(n)
			}
		})
		listed := drawListing(n)
		data := encodeListed(n, &listed)
		b.Run(name+"/verify", func(b *testing.B) {
			for range b.N {
				if _, err := decodeListed(n, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("game24", func(b *testing.B) {
		for range b.N {
			game24.NewSplit()
		}
	})
}

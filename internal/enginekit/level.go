package enginekit

import "github.com/simdrl/simdrl/rng"

// DrawLevel picks episode's level in a mixed update (trainer.Plan: level
// −1) from the counter-based stream: u = word/2³² against the cumulative
// weights cdf of the played levels. It only reads its arguments: the
// engines call it from many goroutines at once.
func DrawLevel(played []int, cdf []float64, key rng.Key, round, episode uint32) int {
	u := float64(key.Block(round, episode, 0, rng.PurposeLevel)[0]) / (1 << 32)
	for i := 0; i < len(played)-1; i++ {
		if u < cdf[i] {
			return played[i]
		}
	}
	return played[len(played)-1]
}

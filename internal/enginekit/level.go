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

// DrawItem picks an episode's item of a level from the cumulative weights
// cdf of its items (trainer.Plan.Items) with the counter-based stream: u =
// word/2³², the first item whose cumulative weight exceeds u. It only reads
// its arguments.
func DrawItem(cdf []float64, key rng.Key, round, episode uint32) int {
	u := float64(key.Block(round, episode, 0, rng.PurposeItem)[0]) / (1 << 32)
	lo, hi := 0, len(cdf)-1
	for lo < hi { // the first i with u < cdf[i]; the last item if none
		mid := (lo + hi) / 2
		if u < cdf[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

package trainer

import (
	"math"
)

// wilsonLower is the old one-attempt rule's bound: the Wilson score lower
// bound of a success rate for successes of n trials at normal quantile z
// (0 for n = 0). The old rule stopped when it was ≥ stop_at at z = 2.326
// (99%, one-sided) on 1000 episodes, at every confirmation alike.
func wilsonLower(successes, n int, z float64) float64 {
	if n <= 0 {
		return 0
	}
	nf := float64(n)
	p := float64(successes) / nf
	z2 := z * z
	lo := (p + z2/(2*nf) - z*math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))) / (1 + z2/nf)
	return max(lo, 0)
}

// oldZ is the old rule's quantile: the standard normal's 99% one.
const oldZ = 2.3263478740408408

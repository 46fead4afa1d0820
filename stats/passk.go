package stats

import "math"

// PassAtK is the unbiased estimate of pass@k from n samples of which c are
// correct (Chen et al. 2021, "Evaluating Large Language Models Trained on
// Code"): 1 − C(n−c, k)/C(n, k), the chance that k of the n samples drawn
// without replacement include a correct one. It is computed as
// 1 − Π_{i=n−c+1}^{n} (1 − k/i), which never forms the binomials. It
// needs 1 ≤ k ≤ n and 0 ≤ c ≤ n, and returns NaN otherwise.
func PassAtK(n, c, k int) float64 {
	if k < 1 || k > n || c < 0 || c > n {
		return math.NaN()
	}
	if n-c < k {
		return 1
	}
	p := 1.0
	for i := n - c + 1; i <= n; i++ {
		p *= 1 - float64(k)/float64(i)
	}
	return 1 - p
}

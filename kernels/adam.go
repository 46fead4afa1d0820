package kernels

// Adam applies one step of PyTorch's Adam (no weight decay, no amsgrad) to
// every element, with the gradient-norm clip folded in as gradScale:
//
//	g  = grad · gradScale
//	m  = β1·m + (1−β1)·g
//	v  = β2·v + (1−β2)·g²
//	p -= stepSize · m / (sqrt(v)/bc2Sqrt + eps)
//
// where stepSize = lr/(1−β1^t) and bc2Sqrt = sqrt(1−β2^t), as torch.optim.Adam.
func Adam(p, g, m, v []float32, gradScale, beta1, beta2, eps, stepSize, bc2Sqrt float32) {
	n := len(p)
	mustLen("Adam", "g", len(g), n)
	mustLen("Adam", "m", len(m), n)
	mustLen("Adam", "v", len(v), n)
	if n == 0 {
		return
	}
	impl.adam(p[:n], g[:n], m[:n], v[:n], gradScale, beta1, beta2, eps, stepSize, bc2Sqrt)
}

// SumSquares returns Σ x², accumulated in float64 (the gradient norm).
func SumSquares(x []float32) float64 {
	if len(x) == 0 {
		return 0
	}
	return impl.sumSquares(x)
}

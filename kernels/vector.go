package kernels

// Elementwise helpers the model needs around the big kernels: the initial
// state's tanh, the sampler's probabilities, and gradient accumulation.
// Each call covers a whole buffer.

// Tanh sets x[i] = tanh(x[i]).
func Tanh(x []float32) {
	if len(x) > 0 {
		impl.tanh(x, x)
	}
}

// Exp sets dst[i] = exp(src[i]) for every i < len(dst).
func Exp(dst, src []float32) {
	mustLen("Exp", "src", len(src), len(dst))
	if len(dst) > 0 {
		impl.exp(dst, src)
	}
}

// Add sets dst[i] += src[i] for every i < len(dst).
func Add(dst, src []float32) {
	mustLen("Add", "src", len(src), len(dst))
	if len(dst) > 0 {
		impl.add(dst, src)
	}
}

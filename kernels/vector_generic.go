package kernels

import "math"

func tanhGeneric(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(math.Tanh(float64(v)))
	}
}

func expGeneric(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] = float32(math.Exp(float64(v)))
	}
}

func addGeneric(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] += v
	}
}

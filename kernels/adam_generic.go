package kernels

import "math"

func adamGeneric(p, g, m, v []float32, gradScale, beta1, beta2, eps, stepSize, bc2Sqrt float32) {
	g, m, v = g[:len(p)], m[:len(p)], v[:len(p)]
	for i := range p {
		gi := g[i] * gradScale
		m[i] = beta1*m[i] + (1-beta1)*gi
		v[i] = beta2*v[i] + (1-beta2)*gi*gi
		denom := float32(math.Sqrt(float64(v[i])))/bc2Sqrt + eps
		p[i] -= stepSize * m[i] / denom
	}
}

func sumSquaresGeneric(x []float32) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		a, b, c, d := float64(x[i]), float64(x[i+1]), float64(x[i+2]), float64(x[i+3])
		s0 += a * a
		s1 += b * b
		s2 += c * c
		s3 += d * d
	}
	for ; i < len(x); i++ {
		a := float64(x[i])
		s0 += a * a
	}
	return (s0 + s1) + (s2 + s3)
}

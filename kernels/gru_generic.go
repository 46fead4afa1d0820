package kernels

import "math"

func sigmoid32(x float32) float32 { return float32(1 / (1 + math.Exp(float64(-x)))) }
func tanh32(x float32) float32    { return float32(math.Tanh(float64(x))) }

func gruForwardGeneric(rows, d int, table []float32, tokens []int32, gh, hPrev, hNext, act []float32) {
	for b := 0; b < rows; b++ {
		gi := table[int(tokens[b])*3*d:][:3*d]
		g := gh[b*3*d:][:3*d]
		a := act[b*3*d:][:3*d]
		hp := hPrev[b*d:][:d]
		hn := hNext[b*d:][:d]
		for j := 0; j < d; j++ {
			r := sigmoid32(gi[j] + g[j])
			z := sigmoid32(gi[d+j] + g[d+j])
			n := tanh32(gi[2*d+j] + r*g[2*d+j])
			a[j], a[d+j], a[2*d+j] = r, z, n
			hn[j] = (1-z)*n + z*hp[j]
		}
	}
}

func gruBackwardGeneric(rows, d int, tokens []int32, act, gh, hPrev, dhNext, dgh, dhPrev, dTable []float32) {
	for b := 0; b < rows; b++ {
		a := act[b*3*d:][:3*d]
		g := gh[b*3*d:][:3*d]
		hp := hPrev[b*d:][:d]
		dh := dhNext[b*d:][:d]
		dg := dgh[b*3*d:][:3*d]
		dhp := dhPrev[b*d:][:d]
		dt := dTable[int(tokens[b])*3*d:][:3*d]
		for j := 0; j < d; j++ {
			r, z, n := a[j], a[d+j], a[2*d+j]
			dn := dh[j] * (1 - z)
			dz := dh[j] * (hp[j] - n)
			dan := dn * (1 - n*n)               // through tanh
			dar := dan * g[2*d+j] * r * (1 - r) // r multiplies gh_n
			daz := dz * z * (1 - z)
			dg[j], dg[d+j], dg[2*d+j] = dar, daz, dan*r
			dt[j] += dar
			dt[d+j] += daz
			dt[2*d+j] += dan
			dhp[j] = dh[j] * z
		}
	}
}

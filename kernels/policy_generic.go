package kernels

import "math"

func exp32(x float32) float32 { return float32(math.Exp(float64(x))) }
func log32(x float32) float32 { return float32(math.Log(float64(x))) }

func policyForwardGeneric(rows, cols int, logits []float32, ld int, logp, ent []float32) {
	for r := 0; r < rows; r++ {
		x := logits[r*ld : r*ld+cols]
		lp := logp[r*cols : r*cols+cols]
		mx := x[0]
		for _, v := range x[1:] {
			mx = max(mx, v)
		}
		var sum float32
		for _, v := range x {
			sum += exp32(v - mx)
		}
		lse := mx + log32(sum)
		var e float32
		for j, v := range x {
			l := v - lse
			lp[j] = l
			p := exp32(l)
			e -= p * log32(p+EntropyEps)
		}
		ent[r] = e
	}
}

// policyBackwardGeneric: with p = softmax(x),
//
//	d logp[a] / dx_i = 1[i=a] − p_i
//	d ent / dp_j     = −(log(p_j+ε) + p_j/(p_j+ε)) =: g_j
//	d ent / dx_i     = p_i (g_i − Σ_j p_j g_j)
func policyBackwardGeneric(rows, cols int, logp []float32, actions []int32, dlogp, dent, dlogits []float32, ld int) {
	for r := 0; r < rows; r++ {
		lp := logp[r*cols : r*cols+cols]
		dx := dlogits[r*ld : r*ld+cols]
		var pg float32
		for j, l := range lp {
			p := exp32(l)
			g := -(log32(p+EntropyEps) + p/(p+EntropyEps))
			dx[j] = g // keep g_j for the second pass
			pg += p * g
		}
		dl, de := dlogp[r], dent[r]
		for j, l := range lp {
			p := exp32(l)
			dx[j] = de*p*(dx[j]-pg) - dl*p
		}
		dx[actions[r]] += dl
	}
}

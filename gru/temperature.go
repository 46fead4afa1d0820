package gru

import "math"

// temperedProbs writes into w.probs the m packed rows' softmax of their
// logits over temperature, softmax(z/T): the sampled evaluation's policy
// (Stream.Temperature). A masked logit (MaskedLogit) stays far below every
// legal one, so its probability is 0 as at T = 1.
func (w *Workspace) temperedProbs(heads []float32, m int, temperature float32) {
	V := w.l.Vocab
	inv := 1 / float64(temperature)
	for i := 0; i < m; i++ {
		z := heads[i*(V+1) : i*(V+1)+V]
		p := w.probs[i*V : (i+1)*V]
		mx := math.Inf(-1)
		for _, v := range z {
			mx = max(mx, float64(v)*inv)
		}
		sum := 0.0
		for j, v := range z {
			e := math.Exp(float64(v)*inv - mx)
			p[j] = float32(e)
			sum += e
		}
		for j := range p {
			p[j] = float32(float64(p[j]) / sum)
		}
	}
}

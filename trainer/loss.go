package trainer

import "github.com/simdrl/simdrl/gru"

// LossTerms are the seed's loss terms over a batch:
//
//	adv   = R − Σ_t value_t            (detached)
//	pg    = −mean_b(Σ_t logp_t · adv)
//	value = mean_b((Σ_t value_t − R)²)
//	ent   = −mean_{b,t}(entropy_t)
//	total = pg + ValueCoef·value + EntropyCoef·ent
type LossTerms struct {
	PG, Value, Entropy, Total float64
}

func (l *LossTerms) add(o LossTerms) {
	l.PG += o.PG
	l.Value += o.Value
	l.Entropy += o.Entropy
	l.Total += o.Total
}

// seedLoss writes the seed's loss weights into the workspace for a chunk
// whose episodes earned rewards (as float32, like torch.tensor(...).float()),
// and returns the chunk's share of the loss terms. batch is the whole
// update's episode count, the denominator of every mean.
func seedLoss(w *gru.Workspace, rewards []float32, batch int, valueCoef, entropyCoef float64) LossTerms {
	n, T := w.Rows(), w.T
	B := float64(batch)
	var out LossTerms
	for b := 0; b < n; b++ {
		var vsum, lpsum, esum float64
		for t := 0; t < T; t++ {
			vsum += float64(w.Value(b, t))
			lpsum += float64(w.Logp(b, t))
			esum += float64(w.Entropy(b, t))
		}
		R := float64(rewards[b])
		adv := R - vsum
		out.PG -= lpsum * adv / B
		out.Value += (vsum - R) * (vsum - R) / B
		out.Entropy -= esum / (B * float64(T))
		dlogp := float32(-adv / B)
		dvalue := float32(valueCoef * 2 * (vsum - R) / B)
		dent := float32(-entropyCoef / (B * float64(T)))
		for t := 0; t < T; t++ {
			w.DLogp[t*n+b] = dlogp
			w.DValue[t*n+b] = dvalue
			w.DEnt[t*n+b] = dent
		}
	}
	out.Total = out.PG + valueCoef*out.Value + entropyCoef*out.Entropy
	return out
}

package cpu

import (
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/trainer"
)

// The loss terms (trainer.LossTerms) over a batch. With the sum baseline
// (the reference's loss):
//
//	adv   = R − Σ_t value_t            (detached)
//	pg    = −mean_b(Σ_t logp_t · adv)
//	value = mean_b((Σ_t value_t − R)²)
//	ent   = −mean_{b,t}(entropy_t)
//	total = pg + ValueCoef·value + EntropyCoef·ent
//
// With the step baseline see stepLoss.

// sumLoss writes the reference's loss weights (the sum baseline) into the workspace for a chunk
// whose episodes earned rewards (as float32, like torch.tensor(...).float()),
// and returns the chunk's share of the loss terms. batch is the whole
// update's episode count, the denominator of every mean.
func sumLoss(w *gru.Workspace, rewards []float32, batch int, valueCoef, entropyCoef float64) trainer.LossTerms {
	n, T := w.Rows(), w.T
	B := float64(batch)
	var out trainer.LossTerms
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

// stepLoss is REINFORCE with a per-step learned baseline: each step's value
// v_t (which sees the context and the program so far) is regressed on the
// return-to-go G_t (returns: for today's tasks, which pay once at the end,
// the episode's return R), and the action at step t is weighted by G_t − v_t:
//
//	pg    = −(1/B) Σ_b Σ_t m_t · logp_t · (G_t − v_t)
//	value =  (1/B) Σ_b Σ_t m_t · (v_t − G_t)²
//	ent   = −(1/(B·T)) Σ_b Σ_t m_t · entropy_t
//
// with m_t = 0 after the step that ended the episode (its first done flag:
// the answer, or the budget's last token; the tokens after it change
// nothing) when mask is set, else 1. s holds the chunk's returns.
func stepLoss(w *gru.Workspace, s *stepBuffers, batch int, valueCoef, entropyCoef float64, mask bool) trainer.LossTerms {
	n, T := w.Rows(), w.T
	B := float64(batch)
	var out trainer.LossTerms
	for b := 0; b < n; b++ {
		last := T - 1
		if mask {
			last = int(s.end[b])
		}
		for t := 0; t < T; t++ {
			i := t*n + b
			if t > last {
				w.DLogp[i], w.DValue[i], w.DEnt[i] = 0, 0, 0
				continue
			}
			R := float64(s.togo[i])
			v := float64(w.Value(b, t))
			adv := R - v
			out.PG -= float64(w.Logp(b, t)) * adv / B
			out.Value += (v - R) * (v - R) / B
			out.Entropy -= float64(w.Entropy(b, t)) / (B * float64(T))
			w.DLogp[i] = float32(-adv / B)
			w.DValue[i] = float32(valueCoef * 2 * (v - R) / B)
			w.DEnt[i] = float32(-entropyCoef / (B * float64(T)))
		}
	}
	out.Total = out.PG + valueCoef*out.Value + entropyCoef*out.Entropy
	return out
}

// addLoss accumulates another chunk's share of the terms into l.
func addLoss(l *trainer.LossTerms, o trainer.LossTerms) {
	l.PG += o.PG
	l.Value += o.Value
	l.Entropy += o.Entropy
	l.Total += o.Total
}

package cpu

import "github.com/simdrl/simdrl/trainer"

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

// sumLoss is the reference's loss (the sum baseline) as an estimator: every
// step of episode b is weighted by its return R_b − Σ_t value_t.
func sumLoss(in episodes, s lossScale, out lossWeights) trainer.LossTerms {
	n, T := in.n, in.T
	B := float64(s.batch)
	var o trainer.LossTerms
	for b := 0; b < n; b++ {
		var vsum, lpsum, esum float64
		for t := 0; t < T; t++ {
			vsum += float64(in.steps.Value(b, t))
			lpsum += float64(in.steps.Logp(b, t))
			esum += float64(in.steps.Entropy(b, t))
		}
		R := float64(in.returns[b])
		adv := R - vsum
		o.PG -= lpsum * adv / B
		o.Value += (vsum - R) * (vsum - R) / B
		o.Entropy -= esum / (B * float64(T))
		dlogp := float32(-adv / B)
		dvalue := float32(s.valueCoef * 2 * (vsum - R) / B)
		dent := float32(-s.entropyCoef / (B * float64(T)))
		for t := 0; t < T; t++ {
			out.DLogp[t*n+b] = dlogp
			out.DValue[t*n+b] = dvalue
			out.DEnt[t*n+b] = dent
		}
	}
	o.Total = o.PG + s.valueCoef*o.Value + s.entropyCoef*o.Entropy
	return o
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
// nothing) when s.mask is set, else 1.
func stepLoss(in episodes, s lossScale, out lossWeights) trainer.LossTerms {
	n, T := in.n, in.T
	B := float64(s.batch)
	var o trainer.LossTerms
	for b := 0; b < n; b++ {
		last := T - 1
		if s.mask {
			last = int(in.end[b])
		}
		for t := 0; t < T; t++ {
			i := t*n + b
			if t > last {
				out.DLogp[i], out.DValue[i], out.DEnt[i] = 0, 0, 0
				continue
			}
			R := float64(in.togo[i])
			v := float64(in.steps.Value(b, t))
			adv := R - v
			o.PG -= float64(in.steps.Logp(b, t)) * adv / B
			o.Value += (v - R) * (v - R) / B
			o.Entropy -= float64(in.steps.Entropy(b, t)) / (B * float64(T))
			out.DLogp[i] = float32(-adv / B)
			out.DValue[i] = float32(s.valueCoef * 2 * (v - R) / B)
			out.DEnt[i] = float32(-s.entropyCoef / (B * float64(T)))
		}
	}
	o.Total = o.PG + s.valueCoef*o.Value + s.entropyCoef*o.Entropy
	return o
}

// addLoss accumulates another chunk's share of the terms into l.
func addLoss(l *trainer.LossTerms, o trainer.LossTerms) {
	l.PG += o.PG
	l.Value += o.Value
	l.Entropy += o.Entropy
	l.Total += o.Total
}

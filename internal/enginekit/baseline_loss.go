package enginekit

// The REINFORCE baselines (trainer.Config.Baseline). With the sum baseline
// (the reference's loss):
//
//	adv   = R − Σ_t value_t            (detached)
//	pg    = −mean_b(Σ_t logp_t · adv)
//	value = mean_b((Σ_t value_t − R)²)
//	ent   = −mean_{b,t}(entropy_t)
//	total = pg + ValueCoef·value + EntropyCoef·ent
//
// With the step baseline see StepLoss. The float64 order of operations is
// the reference's: the parameter hashes (scripts/hashes.sh) pin it.

// SumLoss is the reference's loss (the sum baseline) as an estimator:
// every step of episode b is weighted by its return R_b − Σ_t value_t.
func SumLoss(in Episodes, s LossScale, out LossWeights) LossTerms {
	n, T := in.N, in.T
	B := float64(s.Batch)
	var o LossTerms
	for b := 0; b < n; b++ {
		var vsum, lpsum, esum float64
		for t := 0; t < T; t++ {
			vsum += float64(in.Steps.Value(b, t))
			lpsum += float64(in.Steps.Logp(b, t))
			esum += float64(in.Steps.Entropy(b, t))
		}
		R := float64(in.Returns[b])
		adv := R - vsum
		o.PG -= lpsum * adv / B
		o.Value += (vsum - R) * (vsum - R) / B
		o.Entropy -= esum / (B * float64(T))
		dlogp := float32(-adv / B)
		dvalue := float32(s.ValueCoef * 2 * (vsum - R) / B)
		dent := float32(-s.EntropyCoef / (B * float64(T)))
		for t := 0; t < T; t++ {
			out.DLogp[t*n+b] = dlogp
			out.DValue[t*n+b] = dvalue
			out.DEnt[t*n+b] = dent
		}
	}
	o.Total = o.PG + s.ValueCoef*o.Value + s.EntropyCoef*o.Entropy
	return o
}

// StepLoss is REINFORCE with a per-step learned baseline: each step's
// value v_t (which sees the context and the program so far) is regressed
// on the return-to-go G_t (for tasks that pay once at the end, the
// episode's return R), and the action at step t is weighted by G_t − v_t:
//
//	pg    = −(1/B) Σ_b Σ_t m_t · logp_t · (G_t − v_t)
//	value =  (1/B) Σ_b Σ_t m_t · (v_t − G_t)²
//	ent   = −(1/(B·T)) Σ_b Σ_t m_t · entropy_t
//
// with m_t = 0 after the step that ended the episode (its first done flag:
// the answer, or the budget's last token; the tokens after it change
// nothing) when s.Mask is set, else 1.
func StepLoss(in Episodes, s LossScale, out LossWeights) LossTerms {
	n, T := in.N, in.T
	B := float64(s.Batch)
	var o LossTerms
	for b := 0; b < n; b++ {
		last := T - 1
		if s.Mask {
			last = int(in.End[b])
		}
		for t := 0; t < T; t++ {
			i := t*n + b
			if t > last {
				out.DLogp[i], out.DValue[i], out.DEnt[i] = 0, 0, 0
				continue
			}
			R := float64(in.ToGo[i])
			v := float64(in.Steps.Value(b, t))
			adv := R - v
			o.PG -= float64(in.Steps.Logp(b, t)) * adv / B
			o.Value += (v - R) * (v - R) / B
			o.Entropy -= float64(in.Steps.Entropy(b, t)) / (B * float64(T))
			out.DLogp[i] = float32(-adv / B)
			out.DValue[i] = float32(s.ValueCoef * 2 * (v - R) / B)
			out.DEnt[i] = float32(-s.EntropyCoef / (B * float64(T)))
		}
	}
	o.Total = o.PG + s.ValueCoef*o.Value + s.EntropyCoef*o.Entropy
	return o
}

package enginekit

import "math"

// The group estimators (trainer.GroupEstimators): the K = in.Group
// consecutive episodes of a group played one instance, and each episode's
// advantage A_b compares its return R_b with the group's. Every step of the
// episode (up to its end when s.Mask) is weighted by it:
//
//	pg    = −(1/B) Σ_b Σ_t m_t · logp_t · A_b / L_b
//	value =  (1/B) Σ_b Σ_t m_t · (v_t − G_t)²
//	ent   = −(1/(B·T)) Σ_b Σ_t m_t · entropy_t
//
// with L_b the episode's weighted steps for grpo (its length
// normalisation) and 1 for the others. The value head is not the baseline:
// it is regressed on the return-to-go G_t as with the step baseline, an
// auxiliary task that -value-coef 0 turns off. The GPU's kernels
// (gpu/kernels/loss.cuh) are these estimators' CUDA twins.

// GroupStats are a group's K returns summarised: their mean and their
// sample standard deviation (K − 1 in the denominator, as torch.std).
type GroupStats struct {
	K         int
	Mean, Std float64
}

// StatsOf summarises a group's returns. The mean is taken as the first
// return plus the mean deviation from it, so that a group whose returns
// are all equal has exactly that mean, and every advantage exactly 0.
func StatsOf(r []float32) GroupStats {
	K, first := len(r), float64(r[0])
	var dev float64
	for _, x := range r {
		dev += float64(x) - first
	}
	mean := first + dev/float64(K)
	var ss float64
	for _, x := range r {
		d := float64(x) - mean
		ss += d * d
	}
	return GroupStats{K: K, Mean: mean, Std: math.Sqrt(ss / float64(K-1))}
}

// Flat reports whether a group's returns are all equal: its advantages
// are 0 and it teaches the policy nothing (Diagnostics.FlatGroups).
func Flat(r []float32) bool {
	for _, x := range r[1:] {
		if x != r[0] {
			return false
		}
	}
	return true
}

// GRPOEpsilon keeps GRPO's advantage finite in a group whose returns are
// all equal.
const GRPOEpsilon = 1e-6

// RLOOAdvantage is R − the mean of the group's other K − 1 returns, which
// is K/(K−1) · (R − mean).
func RLOOAdvantage(R float64, g GroupStats) float64 {
	return float64(g.K) / float64(g.K-1) * (R - g.Mean)
}

// GRPOAdvantage is (R − mean) / (std + ε).
func GRPOAdvantage(R float64, g GroupStats) float64 { return (R - g.Mean) / (g.Std + GRPOEpsilon) }

// DrGRPOAdvantage is R − mean.
func DrGRPOAdvantage(R float64, g GroupStats) float64 { return R - g.Mean }

// RLOOLoss is the group estimator with RLOOAdvantage.
func RLOOLoss(in Episodes, s LossScale, out LossWeights) LossTerms {
	return groupLoss(in, s, out, RLOOAdvantage, false)
}

// GRPOLoss is the group estimator with GRPOAdvantage over each episode's
// length.
func GRPOLoss(in Episodes, s LossScale, out LossWeights) LossTerms {
	return groupLoss(in, s, out, GRPOAdvantage, true)
}

// DrGRPOLoss is the group estimator with DrGRPOAdvantage (GRPO without its
// std and length normalisations, "GRPO done right").
func DrGRPOLoss(in Episodes, s LossScale, out LossWeights) LossTerms {
	return groupLoss(in, s, out, DrGRPOAdvantage, false)
}

// groupLoss is a group estimator whose advantage is advantage; perLength
// divides each episode's policy weights by its weighted steps.
func groupLoss(in Episodes, s LossScale, out LossWeights, advantage func(float64, GroupStats) float64, perLength bool) LossTerms {
	n, T, K := in.N, in.T, in.Group
	B := float64(s.Batch)
	dent := float32(-s.EntropyCoef / (B * float64(T)))
	var o LossTerms
	for g := 0; g < n; g += K {
		st := StatsOf(in.Returns[g : g+K])
		for b := g; b < g+K; b++ {
			last := T - 1
			if s.Mask {
				last = int(in.End[b])
			}
			w := advantage(float64(in.Returns[b]), st) / B
			if perLength {
				w /= float64(last + 1)
			}
			for t := 0; t < T; t++ {
				i := t*n + b
				if t > last {
					out.DLogp[i], out.DValue[i], out.DEnt[i] = 0, 0, 0
					continue
				}
				G, v := float64(in.ToGo[i]), float64(in.Steps.Value(b, t))
				o.PG -= float64(in.Steps.Logp(b, t)) * w
				o.Value += (v - G) * (v - G) / B
				o.Entropy -= float64(in.Steps.Entropy(b, t)) / (B * float64(T))
				out.DLogp[i] = float32(-w)
				out.DValue[i] = float32(s.ValueCoef * 2 * (v - G) / B)
				out.DEnt[i] = dent
			}
		}
	}
	o.Total = o.PG + s.ValueCoef*o.Value + s.EntropyCoef*o.Entropy
	return o
}

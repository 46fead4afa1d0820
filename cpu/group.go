package cpu

import (
	"math"

	"github.com/simdrl/simdrl/trainer"
)

// The group estimators (trainer.GroupEstimators): the K = in.group
// consecutive episodes of a group played one instance, and each episode's
// advantage A_b compares its return R_b with the group's. Every step of the
// episode (up to its end when s.mask) is weighted by it:
//
//	pg    = −(1/B) Σ_b Σ_t m_t · logp_t · A_b / L_b
//	value =  (1/B) Σ_b Σ_t m_t · (v_t − G_t)²
//	ent   = −(1/(B·T)) Σ_b Σ_t m_t · entropy_t
//
// with L_b the episode's weighted steps for grpo (its length
// normalisation) and 1 for the others. The value head is not the baseline:
// it is regressed on the return-to-go G_t as with the step baseline, an
// auxiliary task that -value-coef 0 turns off.

// groupStats are a group's K returns summarised: their mean and their
// sample standard deviation (K − 1 in the denominator, as torch.std).
type groupStats struct {
	K         int
	mean, std float64
}

// statsOf summarises a group's returns. The mean is taken as the first
// return plus the mean deviation from it, so that a group whose returns
// are all equal has exactly that mean, and every advantage exactly 0.
func statsOf(r []float32) groupStats {
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
	return groupStats{K: K, mean: mean, std: math.Sqrt(ss / float64(K-1))}
}

// flat reports whether a group's returns are all equal: its advantages
// are 0 and it teaches the policy nothing (Diagnostics.FlatGroups).
func flat(r []float32) bool {
	for _, x := range r[1:] {
		if x != r[0] {
			return false
		}
	}
	return true
}

// grpoEpsilon keeps GRPO's advantage finite in a group whose returns are all equal.
const grpoEpsilon = 1e-6

// rlooAdvantage is R − the mean of the group's other K − 1 returns, which
// is K/(K−1) · (R − mean).
func rlooAdvantage(R float64, g groupStats) float64 {
	return float64(g.K) / float64(g.K-1) * (R - g.mean)
}

// grpoAdvantage is (R − mean) / (std + ε).
func grpoAdvantage(R float64, g groupStats) float64 { return (R - g.mean) / (g.std + grpoEpsilon) }

// drgrpoAdvantage is R − mean.
func drgrpoAdvantage(R float64, g groupStats) float64 { return R - g.mean }

func rlooLoss(in episodes, s lossScale, out lossWeights) trainer.LossTerms {
	return groupLoss(in, s, out, rlooAdvantage, false)
}

func grpoLoss(in episodes, s lossScale, out lossWeights) trainer.LossTerms {
	return groupLoss(in, s, out, grpoAdvantage, true)
}

func drgrpoLoss(in episodes, s lossScale, out lossWeights) trainer.LossTerms {
	return groupLoss(in, s, out, drgrpoAdvantage, false)
}

// groupLoss is a group estimator whose advantage is advantage; perLength
// divides each episode's policy weights by its weighted steps.
func groupLoss(in episodes, s lossScale, out lossWeights, advantage func(float64, groupStats) float64, perLength bool) trainer.LossTerms {
	n, T, K := in.n, in.T, in.group
	B := float64(s.batch)
	dent := float32(-s.entropyCoef / (B * float64(T)))
	var o trainer.LossTerms
	for g := 0; g < n; g += K {
		st := statsOf(in.returns[g : g+K])
		for b := g; b < g+K; b++ {
			last := T - 1
			if s.mask {
				last = int(in.end[b])
			}
			w := advantage(float64(in.returns[b]), st) / B
			if perLength {
				w /= float64(last + 1)
			}
			for t := 0; t < T; t++ {
				i := t*n + b
				if t > last {
					out.DLogp[i], out.DValue[i], out.DEnt[i] = 0, 0, 0
					continue
				}
				G, v := float64(in.togo[i]), float64(in.steps.Value(b, t))
				o.PG -= float64(in.steps.Logp(b, t)) * w
				o.Value += (v - G) * (v - G) / B
				o.Entropy -= float64(in.steps.Entropy(b, t)) / (B * float64(T))
				out.DLogp[i] = float32(-w)
				out.DValue[i] = float32(s.valueCoef * 2 * (v - G) / B)
				out.DEnt[i] = dent
			}
		}
	}
	o.Total = o.PG + s.valueCoef*o.Value + s.entropyCoef*o.Entropy
	return o
}

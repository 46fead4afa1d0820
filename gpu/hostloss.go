//go:build cgo

package gpu

import (
	"math"

	"github.com/simdrl/simdrl/trainer"
)

// The loss weights of a host-stepped rollout (hoststep.go), computed on the
// host from the steps copied back: the Go twins of cpu/estimator.go's pure
// functions (cpu's returns, sumLoss, stepLoss, groupLoss; gpu never imports
// cpu), statement for statement, so that they are the CPU's bit for bit
// (hostloss_test.go compares them with cpu.EstimatorWeights). Unlike
// kernels/loss.cuh, they regress the value on the return-to-go: a Go game
// may pay before its end.

// hostEpisodes are n episodes of T steps, step t of episode b at t*n + b:
// each step's log-probability of its action, value, entropy and
// return-to-go; each episode's return and end step; groups of group.
type hostEpisodes struct {
	n, T, group                int
	logp, value, entropy, togo []float32
	returns                    []float32
	end                        []int32
	batch                      int
	valueCoef, entropyCoef     float64
	mask                       bool
	dlogp, dvalue, dent        []float32 // out
}

// hostReturns writes each episode's return (Σ_t reward_t in float64, as
// float32), the step that ended it (its first done flag, or T−1) and each
// step's return-to-go (past the end: the return), as cpu's
// stepBuffers.returns.
func hostReturns(n, T int, reward []float64, done []bool, ret, togo []float32, end []int32) {
	for b := 0; b < n; b++ {
		last := T - 1
		for t := 0; t < T; t++ {
			if done[t*n+b] {
				last = t
				break
			}
		}
		end[b] = int32(last)
		g := 0.0
		for t := T - 1; t >= 0; t-- {
			g += reward[t*n+b]
			togo[t*n+b] = float32(g)
		}
		ret[b] = float32(g)
		for t := last + 1; t < T; t++ {
			togo[t*n+b] = ret[b]
		}
	}
}

// hostStops reports whether cfg's estimator weights no step after an
// episode's end, so that a rollout may stop once every episode has ended
// (cpu's estimatorOf: the sum baseline weights every step).
func hostStops(cfg trainer.Config) bool {
	return estimatorCode(cfg) != estSum && cfg.MaskAfterAnswer
}

// hostWeights writes in's loss weights with estimator code (estimatorCode)
// and returns the loss terms.
func hostWeights(code int, in *hostEpisodes) trainer.LossTerms {
	var o trainer.LossTerms
	switch code {
	case estSum:
		o = hostSumLoss(in)
	case estStep:
		o = hostStepLoss(in)
	default:
		o = hostGroupLoss(code, in)
	}
	o.Total = o.PG + in.valueCoef*o.Value + in.entropyCoef*o.Entropy
	return o
}

// hostSumLoss is cpu's sumLoss: the seed's advantage R − Σ_t v_t on every step.
func hostSumLoss(in *hostEpisodes) (o trainer.LossTerms) {
	n, T, B := in.n, in.T, float64(in.batch)
	for b := 0; b < n; b++ {
		var vsum, lpsum, esum float64
		for t := 0; t < T; t++ {
			vsum += float64(in.value[t*n+b])
			lpsum += float64(in.logp[t*n+b])
			esum += float64(in.entropy[t*n+b])
		}
		R := float64(in.returns[b])
		adv := R - vsum
		o.PG -= lpsum * adv / B
		o.Value += (vsum - R) * (vsum - R) / B
		o.Entropy -= esum / (B * float64(T))
		dlogp := float32(-adv / B)
		dvalue := float32(in.valueCoef * 2 * (vsum - R) / B)
		dent := float32(-in.entropyCoef / (B * float64(T)))
		for t := 0; t < T; t++ {
			in.dlogp[t*n+b], in.dvalue[t*n+b], in.dent[t*n+b] = dlogp, dvalue, dent
		}
	}
	return o
}

// hostStepLoss is cpu's stepLoss: advantage G_t − v_t, the steps after the
// end masked with mask.
func hostStepLoss(in *hostEpisodes) (o trainer.LossTerms) {
	n, T, B := in.n, in.T, float64(in.batch)
	for b := 0; b < n; b++ {
		last := T - 1
		if in.mask {
			last = int(in.end[b])
		}
		for t := 0; t < T; t++ {
			i := t*n + b
			if t > last {
				in.dlogp[i], in.dvalue[i], in.dent[i] = 0, 0, 0
				continue
			}
			R := float64(in.togo[i])
			v := float64(in.value[i])
			adv := R - v
			o.PG -= float64(in.logp[i]) * adv / B
			o.Value += (v - R) * (v - R) / B
			o.Entropy -= float64(in.entropy[i]) / (B * float64(T))
			in.dlogp[i] = float32(-adv / B)
			in.dvalue[i] = float32(in.valueCoef * 2 * (v - R) / B)
			in.dent[i] = float32(-in.entropyCoef / (B * float64(T)))
		}
	}
	return o
}

// hostGroupLoss is cpu's groupLoss with the advantage of code (rloo, grpo,
// drgrpo: kernels/loss.cuh's simdrl_group_advantage).
func hostGroupLoss(code int, in *hostEpisodes) (o trainer.LossTerms) {
	n, T, K := in.n, in.T, in.group
	B := float64(in.batch)
	dent := float32(-in.entropyCoef / (B * float64(T)))
	for g := 0; g < n; g += K {
		mean, std := hostGroupStats(in.returns[g : g+K])
		for b := g; b < g+K; b++ {
			last := T - 1
			if in.mask {
				last = int(in.end[b])
			}
			R := float64(in.returns[b])
			var w float64
			switch code {
			case estRLOO:
				w = float64(K) / float64(K-1) * (R - mean)
			case estGRPO:
				w = (R - mean) / (std + hostGRPOEpsilon)
			default:
				w = R - mean
			}
			w /= B
			if code == estGRPO {
				w /= float64(last + 1)
			}
			for t := 0; t < T; t++ {
				i := t*n + b
				if t > last {
					in.dlogp[i], in.dvalue[i], in.dent[i] = 0, 0, 0
					continue
				}
				G, v := float64(in.togo[i]), float64(in.value[i])
				o.PG -= float64(in.logp[i]) * w
				o.Value += (v - G) * (v - G) / B
				o.Entropy -= float64(in.entropy[i]) / (B * float64(T))
				in.dlogp[i] = float32(-w)
				in.dvalue[i] = float32(in.valueCoef * 2 * (v - G) / B)
				in.dent[i] = dent
			}
		}
	}
	return o
}

// hostGRPOEpsilon is cpu's grpoEpsilon (SIMDRL_GRPO_EPS).
const hostGRPOEpsilon = 1e-6

// hostGroupStats is cpu's statsOf: the mean as the first return plus the
// mean deviation from it, and the sample standard deviation.
func hostGroupStats(r []float32) (mean, std float64) {
	K, first := len(r), float64(r[0])
	var dev float64
	for _, x := range r {
		dev += float64(x) - first
	}
	mean = first + dev/float64(K)
	var ss float64
	for _, x := range r {
		d := float64(x) - mean
		ss += d * d
	}
	return mean, math.Sqrt(ss / float64(K-1))
}

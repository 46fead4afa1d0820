package enginekit

import (
	"math"

	"github.com/simdrl/simdrl/rng"
)

// PPO's arithmetic (-estimator ppo), shared by both engines (cpu/ppo.go,
// gpu/ppo.go) so that they weigh a stored rollout the same way. A stored
// rollout is B episodes of T steps, step t of episode e at e*T + t; end[e]
// is the step that ended episode e (or T−1).

// GAE writes one episode's GAE(λ) advantages, A_t = Σ_k (γλ)^k δ_{t+k}
// with δ_t = r_t + γ·v_{t+1} − v_t, and returns G_t = A_t + v_t, for its
// steps 0..end (0 after). After the end, a terminated episode is worth 0;
// a truncated one is worth its last value v_end: the state after its last
// token is never computed, and the critic's last estimate stands for it.
func GAE(reward []float64, value []float32, end int, truncated bool, gamma, lambda float64, adv, ret []float32) {
	next := 0.0
	if truncated {
		next = float64(value[end])
	}
	a := 0.0
	for t := end; t >= 0; t-- {
		v := float64(value[t])
		a = reward[t] + gamma*next - v + gamma*lambda*a
		adv[t], ret[t] = float32(a), float32(a+v)
		next = v
	}
	for t := end + 1; t < len(adv); t++ {
		adv[t], ret[t] = 0, 0
	}
}

// PPOStep is one step's clipped surrogate pg and value loss vl and their
// derivatives by the new log-probability and the new value:
//
//	pg = max(−A·r, −A·clip(r, 1−ε, 1+ε)),  r = π(a)/π_old(a)
//	vl = ½·max((v − G)², (v_old + clip(v − v_old, −ε, ε) − G)²)   (½·(v − G)² without clipV)
//
// Where max picks the clipped term and the clip binds, the derivative is 0;
// at a tie, as torch's, the halves of both sides' gradients add up to the
// unclipped one.
func PPOStep(logp, oldLogp, adv, v, oldV, ret, clip float64, clipV bool) (pg, dpg, vl, dv float64) {
	r := math.Exp(logp - oldLogp)
	un, cl := -adv*r, -adv*min(max(r, 1-clip), 1+clip)
	pg = max(un, cl)
	if un >= cl {
		dpg = -adv * r
	}
	vl, dv = 0.5*(v-ret)*(v-ret), v-ret
	if clipV {
		vc := oldV + min(max(v-oldV, -clip), clip)
		if c := 0.5 * (vc - ret) * (vc - ret); c > vl {
			vl, dv = c, 0
			if math.Abs(v-oldV) <= clip { // the clamp passes v through
				dv = vc - ret
			}
		}
	}
	return pg, dpg, vl, dv
}

// PPOShuffle writes epoch's order of the episodes into perm: Fisher–Yates
// on the counter-based stream of (update, epoch), the same on any thread
// count and on either engine.
func PPOShuffle(perm []int32, key rng.Key, update, epoch int) {
	for i := range perm {
		perm[i] = int32(i)
	}
	for i := len(perm) - 1; i > 0; i-- {
		j := rng.Below(key.Block(uint32(update), uint32(epoch), uint32(i), rng.PurposeMinibatch)[0], uint32(i+1))
		perm[i], perm[j] = perm[j], perm[i]
	}
}

// PPOAdvantages is the minibatch mb's steps (up to each episode's end) and
// the mean and 1/(std + 1e-8) of their advantages (torch's unbiased std,
// as CleanRL normalises them), or 0 and 1 without norm.
func PPOAdvantages(adv []float32, end []int32, T int, mb []int32, norm bool) (steps, mean, scale float64) {
	var n, s float64
	for _, e := range mb {
		for t := 0; t <= int(end[e]); t++ {
			n++
			s += float64(adv[int(e)*T+t])
		}
	}
	if !norm {
		return n, 0, 1
	}
	mean = s / n
	var ss float64
	for _, e := range mb {
		for t := 0; t <= int(end[e]); t++ {
			d := float64(adv[int(e)*T+t]) - mean
			ss += d * d
		}
	}
	std := 0.0
	if n > 1 {
		std = math.Sqrt(ss / (n - 1))
	}
	return n, mean, 1 / (std + 1e-8)
}

// ExplainedVariance is 1 − Var(G − v)/Var(G) over the stored rollout's
// steps up to each episode's end (CleanRL's explained_var); 0 when Var(G)
// is 0.
func ExplainedVariance(ret, value []float32, end []int32, T int) float64 {
	var n, sy, sd float64
	for e := range end {
		for t := 0; t <= int(end[e]); t++ {
			i := e*T + t
			n++
			sy += float64(ret[i])
			sd += float64(ret[i]) - float64(value[i])
		}
	}
	my, md := sy/n, sd/n
	var vy, vd float64
	for e := range end {
		for t := 0; t <= int(end[e]); t++ {
			i := e*T + t
			y, d := float64(ret[i])-my, float64(ret[i])-float64(value[i])-md
			vy += y * y
			vd += d * d
		}
	}
	if vy == 0 {
		return 0
	}
	return 1 - vd/vy
}

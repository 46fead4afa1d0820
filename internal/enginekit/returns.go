package enginekit

// Returns writes, for n episodes of T steps stored step-major (step t of
// episode b at t*n + b: reward, done, togo), each episode's return into
// ret (Σ_t reward_t in float64, as float32 like the reference's
// torch.tensor(rewards).float()), the step that ended it into end (its
// first done flag, or T−1 when it runs past the rollout), and its
// return-to-go G_t = Σ_{t' ≥ t} reward_t' up to that step (as float32) into
// togo; past the end, where a task pays nothing, togo holds the episode's
// return, the weight the reference gives every step. A task that pays
// once, at the end (the seed and calc pay at the answer), has G_t = the
// return for every step up to the end: summing zeros to it in float64 is
// exact, so the loss is the reference's bit for bit.
func Returns(n, T int, reward []float64, done []bool, ret, togo []float32, end []int32) {
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

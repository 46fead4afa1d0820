package cpu

import (
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// stepBuffers is what the task's Env writes at every step of a chunk's
// rollout, T×n step-major for the chunk's n episodes, and the returns the
// loss reads from it.
type stepBuffers struct {
	obs    []int32
	reward []float64
	done   []bool
	togo   []float32 // return-to-go per step (see returns)
	end    []int32   // per episode: the step that ended it, or T−1
}

func newStepBuffers(chunk, steps int) stepBuffers {
	return stepBuffers{obs: make([]int32, chunk*steps), reward: make([]float64, chunk*steps), done: make([]bool, chunk*steps),
		togo: make([]float32, chunk*steps), end: make([]int32, chunk)}
}

// stepBufferBytes is what newStepBuffers allocates.
func stepBufferBytes(chunk, steps int) float64 {
	return float64(chunk) * (float64(steps)*(4+8+1+4) + 4)
}

// at is step t's slice of the buffers for a chunk of n episodes.
func (s *stepBuffers) at(t, n int) task.Transition {
	return task.Transition{Obs: s.obs[t*n : (t+1)*n], Reward: s.reward[t*n : (t+1)*n], Done: s.done[t*n : (t+1)*n]}
}

// rollout plays the chunk (contexts and the Env's rows set with setContext)
// step by step: the policy's step, the task's step on its actions, then the
// next input, the action (the tasks observe nothing yet: an observation
// would be the next input's other half).
func (w *worker) rollout(m *model, mode gru.Mode, s gru.Stream) {
	ws := w.ws
	n, T := ws.Rows(), ws.T
	ws.Start(m.params)
	for t := 0; t < T; t++ {
		ws.Step(m.params, m.derived, t, mode, s)
		acts := ws.StepActions(t)
		w.env.Step(acts, w.steps.at(t, n))
		if t+1 < T {
			copy(ws.Inputs(t+1), acts)
		}
	}
}

// episodeReturn is episode b's return, Σ_t reward_t, in float64.
func (s *stepBuffers) episodeReturn(n, T, b int) float64 {
	g := 0.0
	for t := 0; t < T; t++ {
		g += s.reward[t*n+b]
	}
	return g
}

// returns writes each episode's return into ret (as float32, like the
// reference's torch.tensor(rewards).float()), the step that ended it into
// end (its first done flag, or T−1 when it runs past the rollout), and its
// return-to-go G_t = Σ_{t' ≥ t} reward_t' up to that step (as float32) into
// togo; past the end, where a task pays nothing, togo holds the episode's
// return, the weight the reference gives every step. A task that pays once,
// at the end (the seed and calc pay at the answer), has G_t = the return for
// every step up to the end: summing zeros to it in float64 is exact, so the
// loss is the reference's bit for bit.
func (s *stepBuffers) returns(n, T int, ret []float32) {
	for b := 0; b < n; b++ {
		end := T - 1
		for t := 0; t < T; t++ {
			if s.done[t*n+b] {
				end = t
				break
			}
		}
		s.end[b] = int32(end)
		g := 0.0
		for t := T - 1; t >= 0; t-- {
			g += s.reward[t*n+b]
			s.togo[t*n+b] = float32(g)
		}
		ret[b] = float32(g)
		for t := end + 1; t < T; t++ {
			s.togo[t*n+b] = ret[b]
		}
	}
}

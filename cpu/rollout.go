package cpu

import (
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// stepBuffers is what the task's Env writes at every step of a chunk's
// rollout, T×n step-major for the chunk's n episodes, and the returns the
// loss reads from it.
type stepBuffers struct {
	obs    []int32
	reward []float64
	done   []bool
	trunc  []bool    // Transition.Truncated (read at an episode's end)
	togo   []float32 // return-to-go per step (see returns)
	end    []int32   // per episode: the step that ended it, or T−1
}

func newStepBuffers(chunk, steps int) stepBuffers {
	return stepBuffers{obs: make([]int32, chunk*steps), reward: make([]float64, chunk*steps), done: make([]bool, chunk*steps),
		trunc: make([]bool, chunk*steps), togo: make([]float32, chunk*steps), end: make([]int32, chunk)}
}

// at is step t's slice of the buffers for a chunk of n episodes.
func (s *stepBuffers) at(t, n int) task.Transition {
	return task.Transition{Obs: s.obs[t*n : (t+1)*n], Reward: s.reward[t*n : (t+1)*n], Done: s.done[t*n : (t+1)*n],
		Truncated: s.trunc[t*n : (t+1)*n]}
}

// rollout plays the chunk (contexts and the Env's rows set with setContext)
// step by step: the policy's step, the task's step on its actions, then the
// next input: the action, or with observations (gru.Config.Observations) the
// action and the observation the task returned after it, action·O + obs; the
// first input is the context end with Reset's observation, which a reading
// layout's context steps carry too (gru.Workspace.Start: they run in
// Step(0), after that input is written). With stop, a row whose episode
// has ended is retired (gru.Workspace.Retire): the steps after its end cost
// nothing, for a caller whose loss weights them zero or that reads only
// the task's rewards. It returns false when the interrupt closed before its
// last step: the chunk is cut (result.cut) and its steps are left unfinished.
func (w *worker) rollout(m *model, mode gru.Mode, s gru.Stream, stop bool) bool {
	ws, l := w.ws, w.l
	n, T := ws.Rows(), ws.T
	infer := !task.ReportsTruncation(w.env) // a user's Stepper that does not write Truncated
	ws.Start(m.params)
	if w.fields != nil {
		w.fields.Write(ws, l, 0, nil)
	} else if l.Observations > 0 {
		in := ws.Inputs(0)
		for b := range in {
			in[b] = l.Input(l.Start, w.observation(w.first[b]))
		}
	}
	for t := 0; t < T; t++ {
		w.maskNext() // mask.go: the task's legal tokens, when it has a mask
		ws.Step(m.params, m.derived, t, mode, s)
		acts := ws.StepActions(t)
		out := w.steps.at(t, n)
		w.env.Step(acts, out)
		if infer {
			task.InferTruncated(out, t, w.tasks[:n])
		}
		if stop {
			ws.Retire(t, out.Done)
		}
		if w.afterStep != nil {
			w.afterStep(t)
		}
		if t+1 < T {
			if closed(w.interrupt) {
				return false
			}
			if w.fields != nil {
				w.fields.Write(ws, l, t+1, acts)
				continue
			}
			if l.Observations == 0 {
				copy(ws.Inputs(t+1), acts)
				continue
			}
			in := ws.Inputs(t + 1)
			for b, a := range acts {
				in[b] = l.Input(a, w.observation(out.Obs[b]))
			}
		}
	}
	return true
}

// playGreedily plays the chunk's first n tasks, w.tasks[:n], greedily:
// the evaluations, GreedySolved and GreedyPrograms (stop: each episode
// retired at its end, for callers that read only the task's outcome);
// false: cut by the interrupt (rollout).
func (w *worker) playGreedily(m *model, n int, stop bool) bool {
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		w.setContext(b, &w.tasks[b])
	}
	return w.rollout(m, gru.Greedy, gru.Stream{}, stop)
}

// observation checks that o is one of the task's observation tokens: an Env
// that writes another breaks the task.Env contract (a bug in the task's code,
// not an input), which would read outside the model's input table. The
// violation is recovered as the chunk's error (pool.work).
func (w *worker) observation(o int32) int32 {
	if o < 0 || int(o) >= w.l.Observations {
		panic(&task.ViolationError{Err: w.check.Observation(o)})
	}
	return o
}

// episodeReturn is episode b's return, Σ_t reward_t, in float64.
func (s *stepBuffers) episodeReturn(n, T, b int) float64 {
	g := 0.0
	for t := 0; t < T; t++ {
		g += s.reward[t*n+b]
	}
	return g
}

// returns writes each episode's return into ret, the step that ended it
// into end and each step's return-to-go into togo (enginekit.Returns).
func (s *stepBuffers) returns(n, T int, ret []float32) {
	enginekit.Returns(n, T, s.reward, s.done, ret, s.togo, s.end)
}

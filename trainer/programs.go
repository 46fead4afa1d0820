package trainer

import (
	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
)

// GreedyPrograms plays the given tasks greedily and returns their programs,
// len(tasks)×Steps tokens, episode-major. Unlike Evaluate it does not draw
// the tasks from the run's seed, so two engines, or two runs of any seeds,
// can be compared on the same episodes.
func (t *Trainer) GreedyPrograms(tasks []env.Task) []int32 {
	T := t.cfg.Steps
	out := make([]int32, len(tasks)*T)
	w := t.pool.workers[0] // the pool is idle between updates
	for first := 0; first < len(tasks); first += w.ws.Cap {
		n := min(w.ws.Cap, len(tasks)-first)
		w.ws.Reset(n)
		for b := 0; b < n; b++ {
			w.setContext(b, tasks[first+b])
		}
		w.ws.Forward(t.model.params, t.model.derived, gru.Greedy, gru.Stream{})
		for b := 0; b < n; b++ {
			copy(out[(first+b)*T:(first+b+1)*T], w.episodeProgram(b))
		}
	}
	return out
}

package cpu

import (
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// GreedyPrograms plays the given instances greedily and returns their
// programs, len(tasks)×Steps tokens, episode-major (trainer.Engine); an
// interrupt stops it between steps with trainer.ErrInterrupted. A panic in
// the task's code (or a contract violation in a rollout step) is returned
// as an error.
func (e *Engine) GreedyPrograms(tasks []task.Instance) (progs []int32, err error) {
	for i := range tasks {
		if err := task.Check(e.task, &tasks[i]); err != nil {
			return nil, err
		}
	}
	T := e.cfg.Steps
	out := make([]int32, len(tasks)*T)
	w := e.pool.workers[0] // the pool is idle between updates
	defer func() {
		if v := recover(); v != nil {
			progs, err = nil, w.check.Panic(v)
		}
	}()
	for first := 0; first < len(tasks); first += w.ws.Cap {
		if closed(e.pool.stop) {
			return nil, trainer.ErrInterrupted
		}
		n := min(w.ws.Cap, len(tasks)-first)
		copy(w.tasks[:n], tasks[first:first+n])
		if !w.playGreedily(e.model, n, false) { // the whole program, tokens after the end too
			return nil, trainer.ErrInterrupted
		}
		for b := 0; b < n; b++ {
			copy(out[(first+b)*T:(first+b+1)*T], w.episodeProgram(b))
		}
	}
	return out, nil
}

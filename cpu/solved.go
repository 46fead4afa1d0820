package cpu

import (
	"fmt"

	"github.com/simdrl/simdrl/task"
)

// GreedySolved plays ins greedily and writes into solved which it answers
// correctly: what task.Score says of GreedyPrograms's
// programs, bit for bit the same play, but on every worker, and with each
// episode stopped at its end (as the evaluations are), so a level whose
// programs answer early costs only the steps up to the answer. An
// interrupt stops it between steps with trainer.ErrInterrupted. The
// trainer's exhaustive listing and the stop rule's subsets call it
// (trainer's greedySolver) in place of GreedyPrograms.
func (e *Engine) GreedySolved(ins []task.Instance, solved []bool) error {
	if len(solved) != len(ins) {
		return fmt.Errorf("cpu: GreedySolved got %d flags for %d instances", len(solved), len(ins))
	}
	for i := range ins {
		if err := task.Check(e.task, &ins[i]); err != nil {
			return err
		}
	}
	if len(ins) == 0 {
		return nil
	}
	j := &greedyJob{e: e, ins: ins, solved: solved}
	return e.pool.run(j, len(ins))
}

// greedyJob is one GreedySolved pass: chunk by chunk, the given instances.
type greedyJob struct {
	e      *Engine
	ins    []task.Instance
	solved []bool
}

func (j *greedyJob) work(w *worker, r *result) {
	copy(w.tasks[:r.n], j.ins[r.first:r.first+r.n])
	if !w.playGreedily(j.e.model, r.n, j.e.stopEvaluating) {
		r.cut = true
		return
	}
	for b := 0; b < r.n; b++ {
		r.solved[b] = w.env.Correct(b)
	}
}

func (j *greedyJob) merge(r *result) { copy(j.solved[r.first:r.first+r.n], r.solved[:r.n]) }

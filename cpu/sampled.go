package cpu

import (
	"fmt"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// SampledSolved plays samples sampled episodes of each of ins, drawn from
// the policy at temperature (softmax of the logits over it; a task's mask
// applies), and writes into correct[i] how many of ins[i]'s were answered
// correctly: the sampled evaluation's counts, from which the trainer
// estimates pass@k. Episode s of instance i is episode i·samples+s of round
// of the action stream, so the counts are the same for any -threads and
// any chunk. An interrupt stops it between steps with
// trainer.ErrInterrupted.
func (e *Engine) SampledSolved(ins []task.Instance, samples int, temperature float64, round uint32, correct []int) error {
	switch {
	case len(correct) != len(ins):
		return fmt.Errorf("cpu: SampledSolved got %d counts for %d instances", len(correct), len(ins))
	case samples < 1:
		return fmt.Errorf("cpu: SampledSolved of %d samples an instance", samples)
	case !(temperature > 0):
		return fmt.Errorf("cpu: SampledSolved at temperature %v (it must be > 0)", temperature)
	}
	for i := range ins {
		if err := task.Check(e.task, &ins[i]); err != nil {
			return err
		}
	}
	clear(correct)
	if len(ins) == 0 {
		return nil
	}
	j := &sampledJob{e: e, ins: ins, samples: samples, temperature: float32(temperature), round: round, correct: correct}
	return e.pool.run(j, len(ins)*samples)
}

// sampledJob is one SampledSolved pass: chunk by chunk, its episodes
// (instance-major, samples of each).
type sampledJob struct {
	e           *Engine
	ins         []task.Instance
	samples     int
	temperature float32
	round       uint32
	correct     []int
}

func (j *sampledJob) work(w *worker, r *result) {
	n := r.n
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		w.tasks[b] = j.ins[(r.first+b)/j.samples]
		w.setContext(b, &w.tasks[b])
	}
	s := gru.Stream{Key: j.e.key, Round: j.round, FirstEpisode: uint32(r.first), Temperature: j.temperature}
	if !w.rollout(j.e.model, gru.Sample, s, true) {
		r.cut = true
		return
	}
	for b := 0; b < n; b++ {
		r.solved[b] = w.env.Correct(b)
	}
}

func (j *sampledJob) merge(r *result) {
	for b, ok := range r.solved[:r.n] {
		if ok {
			j.correct[(r.first+b)/j.samples]++
		}
	}
}

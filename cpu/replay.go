package cpu

import (
	"fmt"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// replayJob teacher-forces an update's replayed programs (trainer.Plan.Replay)
// after its batch, adding the gradient of
//
//	coef · replay,  replay = −(1/R) Σ_r Σ_{t ≤ answer_r} logp_t(program_r[t])
//
// to the batch's: the steps after the answer change nothing and are left
// out, as the mask does for sampled episodes; no value or entropy term.
type replayJob struct {
	e       *Engine
	replays []task.Episode
	coef    float64
	nll     float64 // replay, merged in chunk order
}

func (j *replayJob) work(w *worker, r *result) {
	e, first, n := j.e, r.first, r.n
	T, R := w.ws.T, float64(len(j.replays))
	answer := e.task.Answer()
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		rp := &j.replays[first+b]
		w.tasks[b] = rp.Instance
		w.setContext(b, &w.tasks[b])
		for t := 0; t < T; t++ {
			w.ws.SetAction(b, t, rp.Program[t])
		}
	}
	if !w.rollout(e.model, gru.Teacher, gru.Stream{}, e.stopTraining) {
		r.cut = true
		return
	}
	ws := w.ws
	r.rsum = 0 // the chunk's share of replay
	dlogp := float32(-j.coef / R)
	for b := 0; b < n; b++ {
		done := false
		for t := 0; t < T; t++ {
			i := t*n + b
			ws.DValue[i], ws.DEnt[i] = 0, 0
			if done {
				ws.DLogp[i] = 0
				continue
			}
			r.rsum -= float64(ws.Logp(b, t)) / R
			ws.DLogp[i] = dlogp
			done = j.replays[first+b].Program[t] == answer
		}
	}
	clear(r.grad)
	r.table.Clear()
	r.cut = !ws.BackwardUntil(e.model.params, e.model.derived, r.grad, r.table.Buffer(), w.interrupt)
}

func (j *replayJob) merge(r *result) {
	j.nll += r.rsum
	kernels.Add(j.e.grad, r.grad)
	kernels.Add(j.e.table.Buffer(), r.table.Buffer())
}

// checkPlan refuses a plan this engine's task cannot play: weighted items
// or replays for a task that is not Itemized, or a replayed program that is
// not Steps tokens of the task's vocabulary (the model would read outside
// its tables).
func (e *Engine) checkPlan(p trainer.Plan) error {
	_, itemized := e.task.(task.Itemized)
	switch {
	case !itemized && (p.Items != nil || len(p.Replay) > 0):
		return fmt.Errorf("update %d: item weights and replays need a task.Itemized task; %s is not", p.Update, e.task.Name())
	case p.Record != nil && len(p.Record) != e.cfg.Batch:
		return fmt.Errorf("update %d: the record has %d episodes, the batch %d", p.Update, len(p.Record), e.cfg.Batch)
	}
	for i := range p.Record {
		if len(p.Record[i].Program) != e.cfg.Steps {
			return fmt.Errorf("update %d: record %d's program has room for %d tokens, want %d", p.Update, i, len(p.Record[i].Program), e.cfg.Steps)
		}
	}
	for i := range p.Replay {
		rp := &p.Replay[i]
		if len(rp.Program) != e.cfg.Steps {
			return fmt.Errorf("update %d: replay %d has %d tokens, want %d", p.Update, i, len(rp.Program), e.cfg.Steps)
		}
		for _, a := range rp.Program {
			if a < 0 || int(a) >= e.task.Vocab() {
				return fmt.Errorf("update %d: replay %d has token %d, outside the vocabulary", p.Update, i, a)
			}
		}
		if err := task.Check(e.task, &rp.Instance); err != nil {
			return fmt.Errorf("update %d: replay %d: %v", p.Update, i, err)
		}
	}
	return nil
}

//go:build cgo

package gpu

// The replayed episodes (trainer.Plan.Replay): teacher-forced rollouts and
// their gradient.

import (
	"fmt"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// replay plays the replayed episodes (trainer.Plan.Replay) teacher-forced,
// at most B a rollout, and leaves the sum of their gradients in gradReplay;
// it returns their negative log-likelihood, −(1/len(eps)) Σ_r Σ_{t ≤
// answer_r} logp_t(program_r[t]) (every step when a program never answers).
// Each part's loss weights are the host's: dlogp = −coef/len(eps) on the
// kept steps and 0 after them, no entropy or value term; the rollout's own
// (from its rewards) are overwritten before the backward, and its
// statistics are never read (the batch's rollout writes them again).
func (e *engine) replay(eps []task.Episode, coef float64) (float64, error) {
	T, V, nr := e.T, e.V, len(eps)
	answer := e.task.Answer()
	if err := e.d.zero(e.gradReplay, 4*e.l.Size); err != nil {
		return 0, err
	}
	w := float32(-coef / float64(nr))
	nll := 0.0
	for first := 0; first < nr; first += e.B {
		if e.interrupted("replay") {
			return 0, trainer.ErrInterrupted
		}
		part := eps[first:min(first+e.B, nr)]
		n := len(part)
		recs := e.hostRecords(n)
		tok, dl, zero, lp := e.host.tokens[:(T+1)*n], e.host.lossWeights[:T*n], e.host.zeroWeights[:T*n], e.host.logpa[:T*n]
		kept := e.host.kept[:n] // steps in the loss
		clear(dl)
		for i := range part {
			r := &part[i]
			if err := task.Check(e.task, &r.Instance); err != nil {
				return 0, fmt.Errorf("gpu: replayed episode %d: %w", first+i, err)
			}
			if len(r.Program) != T {
				return 0, fmt.Errorf("gpu: replayed episode %d has a program of %d tokens, not %d (the steps)", first+i, len(r.Program), T)
			}
			if err := e.pack(recs[record.Words*i:], &r.Instance); err != nil {
				return 0, fmt.Errorf("gpu: replayed episode %d of task %s: %w", first+i, e.task.Name(), err)
			}
			tok[i] = e.ctxEnd
			kept[i] = int32(T)
			for s, a := range r.Program {
				if a < 0 || int(a) >= V {
					return 0, fmt.Errorf("gpu: replayed episode %d: token %d at step %d is not in the %s task's vocabulary", first+i, a, s, e.task.Name())
				}
				tok[(s+1)*n+i] = a
				if a == answer && kept[i] == int32(T) {
					kept[i] = int32(s + 1)
				}
			}
			for s := 0; s < int(kept[i]); s++ {
				dl[s*n+i] = w
			}
		}
		err := e.uploadTasks(recs)
		if err == nil {
			err = upload(e.tokens, tok)
		}
		if err == nil {
			_, err = e.rollout(rolloutSpec{n: n, mode: modeTeacher, train: true, level: 0, givenTasks: true, entropy: 0})
		}
		for _, x := range []struct {
			p   devPtr
			src []float32
		}{{e.dlogp, dl}, {e.dent, zero}, {e.dval, zero}} {
			if err == nil {
				err = upload(x.p, x.src)
			}
		}
		if err == nil {
			err = e.gradients()
		}
		if err == nil {
			err = e.add(e.grad, e.gradReplay)
		}
		if err == nil {
			err = download(lp, e.logpa)
		}
		if err != nil {
			return 0, err
		}
		for i := range part {
			for s := 0; s < int(kept[i]); s++ {
				nll -= float64(lp[s*n+i])
			}
		}
	}
	return nll / float64(nr), nil
}

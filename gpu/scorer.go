//go:build cgo

package gpu

// How the kernels see a task: its scorer (the seed's environment, an op
// table, or the tape's machine), its observations, and the op table and
// not-action offsets uploaded once.

import (
	"fmt"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// Scorers (kernels/common.cuh, SIMDRL_SCORE_*).
const (
	scoreSeed = 0 // env.cuh: the reference's tool environment
	scoreCalc = 1 // calc.cuh: a task.Interpreted's op table
	scoreTape = 2 // tape.cuh: a taperules.Ruled task's machine
)

// scorer is how the kernels score a task's programs.
type scorer struct {
	kind          int         // scoreSeed, scoreCalc or scoreTape
	ops           []interp.Op // scoreCalc: the op table, one per token; scoreTape: each token's tool as its Kind
	partialCredit float64     // scoreCalc, scoreTape
	obs           int         // the observations (task.Observations): 0, interp.SignObservations, or the tape's
	observe       int         // interp.Observation: interp.ObserveSigns when obs > 0; scoreTape: the variant's bits
	ctxEnd        int32       // the context end (task.ContextEnd), every rollout's first token
}

// observer is a calc task that declares its observation as data (the kind
// the kernels compute, calc.cuh's simdrl_calc_obs).
type observer interface {
	Observation() interp.Observation
}

// observationOf says what the kernels feed back after every token of t:
// nothing for an open-loop task, the signs of v and v − m for an
// Interpreted task that observes interp.ObserveSigns; any other observing task
// is refused.
func observationOf(t task.Task) (obs, observe int, err error) {
	n := task.Observations(t)
	if n == 0 {
		return 0, int(interp.ObserveNone), nil
	}
	ob, isObs := t.(observer)
	_, isInterp := t.(task.Interpreted)
	if !isInterp || !isObs || ob.Observation() != interp.ObserveSigns || n != interp.ObserveSigns.Observations() {
		return 0, 0, fmt.Errorf("gpu: the CUDA kernels observe only the calculator's signs of v and v − m (a task.Interpreted task with interp.ObserveSigns, %d observations), not task %s's %d observations; train it on the CPU", interp.SignObservations, t.Name(), n)
	}
	return n, int(interp.ObserveSigns), nil
}

// scorerOf says how the kernels score t: the seed task by its own
// environment, an Interpreted task by its op table, a taperules.Ruled task by the
// tape's machine; no other task runs on the GPU, nor one whose contexts do
// not fit the kernels' records (record.MaxShown).
func scorerOf(t task.Task) (scorer, error) {
	end := task.ContextEnd(t)
	if end < 0 || int(end) >= t.Vocab() {
		return scorer{}, fmt.Errorf("gpu: task %s ends its contexts with token %d, outside its vocabulary of %d", t.Name(), end, t.Vocab())
	}
	if n := task.LongestContext(t); n > record.MaxShown {
		return scorer{}, fmt.Errorf("gpu: task %s shows contexts of up to %d tokens, the CUDA kernels at most %d; train it on the CPU", t.Name(), n, record.MaxShown)
	}
	if tr, ok := t.(taperules.Ruled); ok {
		return tapeScorer(t, tr.TapeRules(), end)
	}
	obs, observe, err := observationOf(t)
	if err != nil {
		return scorer{}, err
	}
	if task.IsSeed(t) {
		return scorer{kind: scoreSeed, ctxEnd: end}, nil
	}
	if it, ok := t.(task.Interpreted); ok {
		if len(it.Ops()) != it.Vocab() {
			return scorer{}, fmt.Errorf("gpu: task %s has %d ops for a vocabulary of %d tokens", t.Name(), len(it.Ops()), it.Vocab())
		}
		return scorer{kind: scoreCalc, ops: it.Ops(), partialCredit: it.PartialCredit(), obs: obs, observe: observe, ctxEnd: end}, nil
	}
	return scorer{}, fmt.Errorf("gpu: the CUDA kernels score the seed task, tasks on the calculator's op table (task.Interpreted) and on the tape's machine (taperules.Ruled), not %s", t.Name())
}

// tapeScorer is the scorer of a taperules.Ruled task t: the machine's variant,
// each token's tool in its op's Kind (the kernels read the first word), and
// the variant's observations.
func tapeScorer(t task.Task, r taperules.Rules, end int32) (scorer, error) {
	if len(r.Tools) != t.Vocab() {
		return scorer{}, fmt.Errorf("gpu: task %s has %d tools for a vocabulary of %d tokens", t.Name(), len(r.Tools), t.Vocab())
	}
	if n, want := task.Observations(t), r.Observations; n != want {
		return scorer{}, fmt.Errorf("gpu: task %s has %d observations and its tape machine %d", t.Name(), n, want)
	}
	ops := make([]interp.Op, len(r.Tools))
	for tok, tool := range r.Tools {
		ops[tok] = interp.Op{Kind: interp.OpKind(tool)}
	}
	return scorer{kind: scoreTape, ops: ops, partialCredit: r.PartialCredit, obs: r.Observations, observe: int(r.Variant), ctxEnd: end}, nil
}

// uploadTask writes the op table (three int32 per token, zero for the seed
// task, which does not read it) and the not-action logit offsets.
func (e *engine) uploadTask(ops []interp.Op, notActions []int32) error {
	table := make([]int32, record.OpWords*e.V) // zero: the seed's scorer reads no table
	copy(table, record.OpTable(ops))
	offset := make([]float32, e.V)
	for _, tok := range notActions {
		offset[tok] = gru.NotActionLogit
	}
	if err := upload(e.ops, table); err != nil {
		return err
	}
	return upload(e.notAct, offset)
}

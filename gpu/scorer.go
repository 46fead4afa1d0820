//go:build cgo

package gpu

// How the kernels see a task: its scorer (the seed's environment or an op
// table), its observations, and the op table and not-action offsets uploaded
// once.

import (
	"fmt"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// Scorers (kernels/common.cuh, SIMDRL_SCORE_*).
const (
	scoreSeed = 0 // env.cuh: the reference's tool environment
	scoreCalc = 1 // calc.cuh: a task.Interpreted's op table
)

// scorer is how the kernels score a task's programs.
type scorer struct {
	kind          int         // scoreSeed or scoreCalc
	ops           []interp.Op // scoreCalc: the op table, one per token
	partialCredit float64     // scoreCalc
	obs           int         // the observations (task.Observations): 0, or interp.SignObservations
	observe       int         // interp.Observation: interp.ObserveSigns when obs > 0
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
// environment, an Interpreted task by its op table; no other task runs on
// the GPU, nor one whose context end is not CTX (the kernels' SIMDRL_CTX).
func scorerOf(t task.Task) (scorer, error) {
	if end := task.ContextEnd(t); end != task.CTX {
		return scorer{}, fmt.Errorf("gpu: the CUDA kernels start every rollout at token %d (CTX), and task %s ends its contexts with %d (task.ContextEnder); train it on the CPU", task.CTX, t.Name(), end)
	}
	obs, observe, err := observationOf(t)
	if err != nil {
		return scorer{}, err
	}
	if task.IsSeed(t) {
		return scorer{kind: scoreSeed}, nil
	}
	if it, ok := t.(task.Interpreted); ok {
		if len(it.Ops()) != it.Vocab() {
			return scorer{}, fmt.Errorf("gpu: task %s has %d ops for a vocabulary of %d tokens", t.Name(), len(it.Ops()), it.Vocab())
		}
		return scorer{kind: scoreCalc, ops: it.Ops(), partialCredit: it.PartialCredit(), obs: obs, observe: observe}, nil
	}
	return scorer{}, fmt.Errorf("gpu: the CUDA kernels score the seed task and tasks on the calculator's op table (task.Interpreted), not %s", t.Name())
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

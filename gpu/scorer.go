//go:build cgo

package gpu

// How the kernels see a task: its scorer (the seed's environment, an op
// table, or the tape's machine), its observations, and the op table and
// not-action offsets uploaded once.

import (
	"fmt"
	"math"

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
	scoreHost = 3 // any other task: its game stepped on the host (hoststep.go)
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
// tape's machine, any other task by its game stepped on the host
// (hoststep.go); no task runs on the GPU whose contexts do not fit the
// kernels' records (record.MaxShown).
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
	_, interpreted := t.(task.Interpreted)
	if !task.IsSeed(t) && !interpreted {
		switch t.(type) {
		case task.Stepper, task.Stepwise, task.Scorer: // task.NewEnv plays it
			return scorer{kind: scoreHost, obs: task.Observations(t), observe: int(interp.ObserveNone), ctxEnd: end}, nil
		}
		return scorer{}, fmt.Errorf("gpu: the CUDA engine plays the seed task, tasks on the calculator's op table (task.Interpreted) or the tape's machine (taperules.Ruled), and tasks whose games the host steps (task.Stepwise, task.Stepper, task.Scorer), not %s", t.Name())
	}
	obs, observe, err := observationOf(t)
	if err != nil {
		return scorer{}, err
	}
	if task.IsSeed(t) {
		return scorer{kind: scoreSeed, ctxEnd: end}, nil
	}
	it := t.(task.Interpreted)
	if len(it.Ops()) != it.Vocab() {
		return scorer{}, fmt.Errorf("gpu: task %s has %d ops for a vocabulary of %d tokens", t.Name(), len(it.Ops()), it.Vocab())
	}
	if err := finiteCredit(t, it.PartialCredit()); err != nil {
		return scorer{}, err
	}
	return scorer{kind: scoreCalc, ops: it.Ops(), partialCredit: it.PartialCredit(), obs: obs, observe: observe, ctxEnd: end}, nil
}

// tapeScorer is the scorer of a taperules.Ruled task t: the machine's variant,
// each token's tool in its op's Kind (the kernels read the first word), and
// the variant's observations. The kernels trust these: a variant they do
// not know, or observations other than the variant's (which the kernels
// compute, tape.cuh's simdrl_tape_obs, and index the token table with) is
// refused, as the CPU refuses the observations such a task's Env returns.
func tapeScorer(t task.Task, r taperules.Rules, end int32) (scorer, error) {
	if len(r.Tools) != t.Vocab() {
		return scorer{}, fmt.Errorf("gpu: task %s has %d tools for a vocabulary of %d tokens", t.Name(), len(r.Tools), t.Vocab())
	}
	if r.Variant&^tapeVariantBits != 0 {
		return scorer{}, fmt.Errorf("gpu: task %s runs on a tape machine of variant %#x, which has bits (%#x) of no variant the CUDA kernels know", t.Name(), r.Variant, r.Variant&^tapeVariantBits)
	}
	want := tapeObservations(r.Variant)
	if n := task.Observations(t); n != want || r.Observations != want {
		return scorer{}, fmt.Errorf("gpu: task %s declares %d observations (its tape rules %d), but its tape machine's variant %#x observes %d", t.Name(), n, r.Observations, r.Variant, want)
	}
	if err := finiteCredit(t, r.PartialCredit); err != nil {
		return scorer{}, err
	}
	ops := make([]interp.Op, len(r.Tools))
	for tok, tool := range r.Tools {
		if tool < 0 || tool > tapeToolOther {
			tool = -1 // taperules: any number that is no tool is none
		}
		ops[tok] = interp.Op{Kind: interp.OpKind(tool)}
	}
	return scorer{kind: scoreTape, ops: ops, partialCredit: r.PartialCredit, obs: want, observe: int(r.Variant), ctxEnd: end}, nil
}

// The tape machine as tape.cuh runs it: the variant's bits
// (taperules.Loose … Headless), its last tool (SIMDRL_TOOL_OTHER), and its
// observations' parts (the kinds of the cell under the head and of the
// operator stack's top, SIMDRL_TAPE_TOP_KINDS and SIMDRL_TAPE_BRANCH_TOP_KINDS).
const (
	tapeVariantBits = taperules.Loose | taperules.Blind | taperules.Unstacked | taperules.Branching | taperules.Headless
	tapeToolOther   = 10
	tapeHeadKinds   = 7  // a digit, + − × ( ), the end
	tapeTopKinds    = 5  // none, + − × (
	tapeBranchHeads = 11 // … abs( max( min( ,
	tapeBranchTops  = 14 // … abs, max, min × 3 signs
)

// tapeObservations is how many observations tape.cuh's simdrl_tape_obs
// gives a machine of variant (tape.Variant.Observations).
func tapeObservations(variant uint32) int {
	switch {
	case variant&taperules.Branching != 0:
		return tapeBranchHeads * tapeBranchTops
	case variant&taperules.Headless != 0:
		return tapeTopKinds
	}
	return tapeHeadKinds * tapeTopKinds
}

// finiteCredit refuses a partial credit that is not finite: every reward
// that pays it would be (the CPU refuses such a reward when it is paid).
func finiteCredit(t task.Task, credit float64) error {
	if math.IsNaN(credit) || math.IsInf(credit, 0) {
		return fmt.Errorf("gpu: task %s gives a partial credit of %v: it must be finite", t.Name(), credit)
	}
	return nil
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

// tapeCells refuses an instance of a tape task (variant) whose tape, as
// tape.cuh unpacks it (taperules' layout, to the stop value or the words'
// end), holds a cell that no tape holds: on the CPU the machine would
// observe it outside the task's observations. It allocates nothing.
func tapeCells(variant uint32, in *task.Instance) error {
	bits, branching := 4, variant&taperules.Branching != 0
	if branching {
		bits = 5
	}
	k, mask := 64/bits, int64(1)<<bits-1
	stop := mask // 31: the stop value of 5-bit cells
	if bits == 4 {
		stop = tapeLeaf
	}
	words := max(0, min(in.Data[taperules.DataNWords], taperules.PackedWords))
	for i := range min(k*int(words), tapeMaxCells) {
		c := in.Data[taperules.DataWords+i/k] >> (bits * (i % k)) & mask
		if c == stop {
			return nil
		}
		if c == tapeLeaf || c > tapeComma || c > tapeClose && !branching {
			cells := "digits, + - * ( )"
			if branching {
				cells += " abs( max( min( ,"
			}
			return fmt.Errorf("its tape holds %d at cell %d, which is no cell of its machine's tapes (%s)", c, i, cells)
		}
	}
	return nil
}

// tape.Cell's Close, Leaf (never on a tape) and Comma (the last), and
// tape.MaxCells (tape.cuh's SIMDRL_CELL_*, SIMDRL_TAPE_MAX_CELLS).
const (
	tapeClose    = 14
	tapeLeaf     = 15
	tapeComma    = 19
	tapeMaxCells = 192
)

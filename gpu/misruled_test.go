//go:build cgo

package gpu

import (
	"math"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/env/tape"
	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// ruledTask is what the tape task is to the engines.
type ruledTask interface {
	task.Stepper
	task.Observer
	task.ContextEnder
	taperules.Ruled
}

// misruled is a user's tape task, "misruled", that hands the kernels what
// its Env does not run: the tape task of spec with its rules edited
// (rules), its declared observations changed (observations > 0), or each
// instance's data edited (data).
type misruled struct {
	ruledTask
	rules        func(*taperules.Rules)
	observations int
	data         func(*task.Instance)
}

func newMisruled(t testing.TB, spec string) misruled {
	tk, err := task.Open("tape", spec)
	require.NoError(t, err)
	return misruled{ruledTask: tk.(ruledTask)}
}

func (m misruled) Name() string { return "misruled" }

func (m misruled) TapeRules() taperules.Rules {
	r := m.ruledTask.TapeRules()
	if m.rules != nil {
		m.rules(&r)
	}
	return r
}

func (m misruled) Observations() int {
	if m.observations > 0 {
		return m.observations
	}
	return m.ruledTask.Observations()
}

func (m misruled) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	in := m.ruledTask.Draw(key, round, episode, purpose, level, split)
	if m.data != nil {
		m.data(&in)
	}
	return in
}

// TestGPURefusesMisruledTapes: the kernels compute a tape task's
// observations from its machine's variant and index the token table with
// them, so a task whose variant they do not know, or whose observations
// are not its variant's, is refused in one line naming it before the
// device is opened (H1: the tape task claiming the branching machine was
// trained on garbage, reading past the token table); so is a partial credit
// that is not finite, for the tape and for the calculator's op table.
func TestGPURefusesMisruledTapes(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    misruled
		want string
	}{
		{"claims the branching machine", misruled{rules: func(r *taperules.Rules) { r.Variant |= taperules.Branching }},
			"declares 35 observations (its tape rules 35), but its tape machine's variant 0x8 observes 154"},
		{"claims the branching machine, rules and all", misruled{rules: func(r *taperules.Rules) {
			r.Variant, r.Observations = taperules.Branching, tape.NumBranchingObservations
		}}, "declares 35 observations (its tape rules 154), but its tape machine's variant 0x8 observes 154"},
		{"declares the branching observations on the strict machine", misruled{observations: tape.NumBranchingObservations,
			rules: func(r *taperules.Rules) { r.Observations = tape.NumBranchingObservations }},
			"declares 154 observations (its tape rules 154), but its tape machine's variant 0x0 observes 35"},
		{"claims the headless machine", misruled{rules: func(r *taperules.Rules) { r.Variant = taperules.Headless }},
			"variant 0x10 observes 5"},
		{"an unknown variant", misruled{rules: func(r *taperules.Rules) { r.Variant |= 1 << 5 }},
			"variant 0x20, which has bits (0x20) of no variant the CUDA kernels know"},
		{"variant 4294967295", misruled{rules: func(r *taperules.Rules) { r.Variant = math.MaxUint32 }},
			"variant 0xffffffff, which has bits (0xffffffe0)"},
		{"a partial credit of NaN", misruled{rules: func(r *taperules.Rules) { r.PartialCredit = math.NaN() }},
			"gives a partial credit of NaN: it must be finite"},
		{"a partial credit of +Inf", misruled{rules: func(r *taperules.Rules) { r.PartialCredit = math.Inf(1) }},
			"gives a partial credit of +Inf"},
	} {
		m := newMisruled(t, "")
		m.rules, m.observations = tc.m.rules, tc.m.observations
		_, err := scorerOf(m)
		require.ErrorContains(t, err, "gpu: task misruled ", tc.name)
		require.ErrorContains(t, err, tc.want, tc.name)
		cfg := tapeConfig(t, "")
		cfg.Task, cfg.ItemFocus = m.Name(), false // (misruled is not itemized)
		_, err = NewWithTask(cfg, m)              // refused before the device is opened: no GPU needed
		require.ErrorContains(t, err, tc.want, tc.name)
		require.NotContains(t, err.Error(), "\n", tc.name)
	}
	calc := infiniteCredit{newShownTask(t, readLevels)}
	_, err := scorerOf(calc)
	require.ErrorContains(t, err, "gpu: task "+calc.Name()+" gives a partial credit of -Inf: it must be finite")
}

// infiniteCredit is the shown task (an op table's) with a partial credit
// of −Inf.
type infiniteCredit struct{ shownTask }

func (infiniteCredit) PartialCredit() float64 { return math.Inf(-1) }

// TestGPUTapeToolsOutOfRange: a token whose tool is no tool
// (taperules.Rules.Tools: any number) reaches the kernels as none (−1),
// so tape.cuh only ever switches on a tool it knows.
func TestGPUTapeToolsOutOfRange(t *testing.T) {
	m := newMisruled(t, "branching=on")
	m.rules = func(r *taperules.Rules) { r.Tools[0], r.Tools[1], r.Tools[2] = 99, -7, math.MaxInt32 }
	sc, err := scorerOf(m)
	require.NoError(t, err)
	want := m.ruledTask.TapeRules().Tools
	for tok, op := range sc.ops {
		if tok < 3 {
			require.EqualValues(t, -1, op.Kind, "token %d", tok)
			continue
		}
		require.EqualValues(t, want[tok], op.Kind, "token %d", tok)
		require.True(t, want[tok] >= -1 && want[tok] <= tapeToolOther, "token %d: the task's own tools are tape.cuh's", tok)
	}
}

// TestGPUTapeObservationsAreTheMachines: tapeObservations, what the host
// checks a task's observations against, is env/tape's count for every
// variant, as tape.cuh computes them.
func TestGPUTapeObservationsAreTheMachines(t *testing.T) {
	for bits := range uint32(tapeVariantBits + 1) {
		v := tape.Variant{Loose: bits&taperules.Loose != 0, Blind: bits&taperules.Blind != 0, Unstacked: bits&taperules.Unstacked != 0,
			Branching: bits&taperules.Branching != 0, Headless: bits&taperules.Headless != 0}
		require.Equal(t, bits, v.Bits())
		require.Equal(t, v.Observations(), tapeObservations(bits), "variant %#x", bits)
	}
}

// junkCell puts cell c at position i of in's packed tape (bits a cell).
func junkCell(in *task.Instance, i, bits int, c int64) {
	k := 64 / bits
	w := &in.Data[taperules.DataWords+i/k]
	shift := bits * (i % k)
	*w = *w&^((1<<bits-1)<<shift) | c<<shift
}

// TestGPURefusesJunkTapeCells: an instance whose tape holds a cell no tape
// holds (branching's 5-bit cells 20..30, or the template's leaf) is
// refused before its record is written (pack), for the draw, the greedy
// programs and the replayed episodes alike; every cell of the task's own
// tapes passes, and so do the strict machine's 4-bit cells, all of which are
// cells.
func TestGPURefusesJunkTapeCells(t *testing.T) {
	m := newMisruled(t, "branching=on")
	e := &engine{scoreKind: scoreTape, observe: int(m.TapeRules().Variant)}
	dst := make([]int32, record.Words)
	key := rng.NewKey(3)
	for lv := range m.Levels() {
		for ep := range uint32(50) {
			in := m.Draw(key, 1, ep, rng.PurposeTask, lv, task.Training)
			require.NoError(t, e.pack(dst, &in), "level %d episode %d", lv, ep)
			for _, c := range []int64{int64(tape.Leaf), int64(tape.Comma) + 1, 25, 30} {
				bad := in
				junkCell(&bad, 1, 5, c)
				err := e.pack(dst, &bad)
				require.ErrorContains(t, err, "its tape holds", "cell %d", c)
				require.ErrorContains(t, err, "which is no cell of its machine's tapes (digits, + - * ( ) abs( max( min( ,)")
			}
		}
	}
	strict := &engine{scoreKind: scoreTape}
	in := newMisruled(t, "").Draw(key, 1, 0, rng.PurposeTask, 0, task.Training)
	for c := range int64(tape.Leaf) {
		junkCell(&in, 0, 4, c)
		require.NoError(t, strict.pack(dst, &in), "cell %d", c)
	}
}

// TestGPURecordShowsTheInstancesContext: an interpreted instance with no
// context but operands would show its digits in its record (record.Pack),
// which the CPU never reads: refused.
func TestGPURecordShowsTheInstancesContext(t *testing.T) {
	tk := newShownTask(t, readLevels)
	in := tk.Interpreted.Draw(rng.NewKey(1), 0, 0, rng.PurposeTask, 0, task.Training)
	e := &engine{scoreKind: scoreCalc}
	dst := make([]int32, record.Words)
	require.NoError(t, e.pack(dst, &in))
	require.Positive(t, in.NContext)
	in.NContext = 0
	require.ErrorContains(t, e.pack(dst, &in), "instance shows 0 context tokens, and a record of its operands would show their")
}

// TestGPUTrainingRefusesJunkTapeCells: a task that draws a cell no tape
// holds stops the first update with an error that names it, and trains
// nothing, where the CPU refuses the observation its Env returns for it.
func TestGPUTrainingRefusesJunkTapeCells(t *testing.T) {
	openGPU(t).Close()
	cfg := tapeConfig(t, "branching=on")
	m := newMisruled(t, cfg.TaskSpec)
	cfg.Task, cfg.ItemFocus = m.Name(), false // (misruled is not itemized)
	m.data = func(in *task.Instance) { junkCell(in, 0, 5, 25) }
	g, err := NewWithTask(cfg, m)
	require.NoError(t, err)
	defer g.Close()
	tr, err := trainer.New(cfg, m, g)
	require.NoError(t, err)
	_, err = tr.Update()
	require.ErrorContains(t, err, "the misruled task drew a bad instance of level")
	require.ErrorContains(t, err, "its tape holds 25 at cell 0")
	require.Zero(t, tr.Updates())

	c, err := cpu.NewWithTask(cfg, m)
	require.NoError(t, err)
	defer c.Close()
	tr, err = trainer.New(cfg, m, c)
	require.NoError(t, err)
	_, err = tr.Update()
	require.ErrorContains(t, err, "the misruled task's Env returned observation")
	require.True(t, strings.Contains(err.Error(), "outside its 154 observation tokens"), err.Error())
}

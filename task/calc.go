package task

import (
	"fmt"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/rng"
)

// calcTask is the calculator (package env/calc) on a curriculum of levels
// written as expressions, with partial credit for the inner values held.
type calcTask struct {
	spec          string // the levels as given ("" for the default)
	levels        calc.Levels
	info          []Level
	partialCredit float64
}

func init() { Register("calc", OpenCalc) }

// OpenCalc is the calc task of a spec (CalcSpec: "levels=a*b, a*b+c*d;
// partial_credit=0.3"), as Open("calc", spec) opens it.
func OpenCalc(spec string) (Task, error) {
	s, err := ParseCalcSpec(spec)
	if err != nil {
		return nil, err
	}
	return Calc(s.Levels, s.PartialCredit)
}

// Calc is the calculator task on the curriculum levels ("" for the default,
// calc.DefaultLevelsSpec), rewarding 1 for a correct answer plus
// partialCredit × the share of the expression's inner values held. It is
// CalcWith with no interrupt and no progress. Its errors are SpecErrors.
func Calc(levels string, partialCredit float64) (Task, error) {
	return CalcWith(levels, partialCredit, calc.ParseOptions{})
}

// CalcWith is Calc with the spec's searches observed and interruptible (see
// calc.ParseOptions). Package calc remembers every search for the process,
// so a command can parse a spec here with a progress line and Ctrl-C, and
// every later Calc of the same levels (in any spelling) searches nothing.
func CalcWith(levels string, partialCredit float64, opt calc.ParseOptions) (Task, error) {
	if err := (CalcSpec{PartialCredit: partialCredit}).checkPartialCredit(); err != nil {
		return nil, err
	}
	spec := levels
	if spec == "" {
		spec = calc.DefaultLevelsSpec
	}
	ls, err := calc.ParseLevelsWith(spec, opt)
	if err != nil {
		return nil, &SpecError{"levels", err}
	}
	t := &calcTask{spec: levels, levels: ls, partialCredit: partialCredit}
	for i := range t.levels {
		l := &t.levels[i]
		t.info = append(t.info, Level{Name: l.Expr.String(), Context: l.Vars(), Budget: l.Budget, Shortest: len(l.Shortest)})
	}
	return t, nil
}

func (*calcTask) Name() string  { return "calc" }
func (*calcTask) Answer() int32 { return calc.ANS }

// NotActions are the digits and CTX: they do nothing as actions, and a
// policy that may write them spends its budget and its exploration on them.
func (*calcTask) NotActions() []int32        { return []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, CTX} }
func (*calcTask) HoldsOut() bool             { return true }
func (*calcTask) Vocab() int                 { return calc.Vocab }
func (*calcTask) TokenName(tok int32) string { return calc.TokenName(tok) }
func (t *calcTask) Levels() []Level          { return t.info }
func (*calcTask) Ops() []calc.Op             { return append([]calc.Op(nil), calc.Ops[:]...) }
func (t *calcTask) PartialCredit() float64   { return t.partialCredit }

var (
	_ Interpreted = (*calcTask)(nil)
	_ Tuned       = (*calcTask)(nil)
)

// DefaultTuning is partial credit and a stronger entropy bonus over a
// longer schedule: the entropy term is averaged over all T steps of the
// rollout, most of them after the answer in the short levels, so at the
// seed task's 0.1 the memory levels' exploration died before M−V was found
// (README, "The calc task": 0.1 left the last two levels at 0.25). The
// decay's length is its own: -updates 40000 explores as briefly as the
// default and stops as soon.
func (t *calcTask) DefaultTuning() Tuning {
	return Tuning{Spec: CalcSpec{Levels: t.spec, PartialCredit: 0.3}.String(), EntropyCoef: 0.5, Updates: 6000, EntropyUpdates: 6000}
}

func (t *calcTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split Split) Instance {
	return fromCalc(t.levels.Draw(key, round, episode, purpose, level, split == HeldOut))
}

func (t *calcTask) Score(in *Instance, program []int32) Outcome {
	o := calc.Run(toCalc(in), program, t.partialCredit)
	return Outcome{Reward: o.Reward, Correct: o.Correct}
}

func (t *calcTask) Explain(in *Instance, program []int32) Explanation {
	o, trace := calc.Trace(toCalc(in), program, t.partialCredit, nil)
	ex := Explanation{
		Level: int(in.Level), Name: t.info[in.Level].Name, Context: append([]int32(nil), in.Digits[:in.Vars]...),
		Target: in.Target, Reward: o.Reward, Correct: o.Correct,
	}
	if !o.Answered {
		ex.Note = "no answer within the budget"
	}
	for _, a := range program {
		ex.Tokens = append(ex.Tokens, calc.TokenName(a))
	}
	for _, s := range trace {
		state := fmt.Sprintf("v=%d m=%d", s.Machine.V, s.Machine.M)
		if s.Operand >= 0 {
			state += fmt.Sprintf(" (%c=%d)", 'a'+s.Machine.P-1, s.Operand)
		}
		ex.Trace = append(ex.Trace, Step{Token: s.Name(), State: state})
	}
	return ex
}

func fromCalc(c calc.Instance) Instance {
	in := Instance{Level: c.Level, Vars: c.Vars, Budget: c.Budget, Target: c.Target, NInner: c.NInner}
	copy(in.Digits[:], c.Digits[:])
	copy(in.Inner[:], c.Inner[:c.NInner])
	return in
}

func toCalc(in *Instance) calc.Instance {
	c := calc.Instance{Level: in.Level, Vars: in.Vars, Budget: in.Budget, Target: in.Target, NInner: in.NInner}
	copy(c.Digits[:], in.Digits[:])
	copy(c.Inner[:], in.Inner[:in.NInner])
	return c
}

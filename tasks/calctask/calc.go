package calctask

import (
	"fmt"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// calcTask is the calculator (package env/calc) on a curriculum of levels
// written as expressions, with partial credit for the inner values held.
type calcTask struct {
	spec          string // the levels as given ("" for the default)
	levels        calc.Levels
	info          []task.Level
	partialCredit float64
	observeOpt    CalcObserve // as given
	ops           []interp.Op // calc.Ops or calc.BranchOps: the machine
	observation   interp.Observation
}

func init() {
	task.Register("calc", OpenCalc)
	task.RegisterSpecEditor("calc", specEditor{})
}

// OpenCalc is the calc task of a spec (CalcSpec: "levels=a*b, a*b+c*d;
// partial_credit=0.3"), as Open("calc", spec) opens it.
func OpenCalc(spec string) (task.Task, error) {
	s, err := ParseCalcSpec(spec)
	if err != nil {
		return nil, err
	}
	return CalcOf(s, calc.ParseOptions{})
}

// Calc is the calculator task on the curriculum levels ("" for the default,
// calc.DefaultLevelsSpec), rewarding 1 for a correct answer plus
// partialCredit × the share of the expression's inner values held. It is
// CalcWith with no interrupt and no progress. Its errors are SpecErrors.
func Calc(levels string, partialCredit float64) (task.Task, error) {
	return CalcWith(levels, partialCredit, calc.ParseOptions{})
}

// CalcWith is Calc with the spec's searches observed and interruptible (see
// calc.ParseOptions). Package calc remembers every search for the process,
// so a command can parse a spec here with a progress line and Ctrl-C, and
// every later Calc of the same levels (in any spelling) searches nothing.
func CalcWith(levels string, partialCredit float64, opt calc.ParseOptions) (task.Task, error) {
	return CalcOf(CalcSpec{Levels: levels, PartialCredit: partialCredit}, opt)
}

// CalcOf is the calc task of the options s (all of them: levels, partial
// credit, observe), its searches observed and interruptible as CalcWith's.
// The machine is the branching one (NEG, SWAP: calc.BranchVocab tokens) iff
// some level branches or s.Observe is on, and the policy observes iff the
// machine branches and s.Observe is not off (CalcObserve).
func CalcOf(s CalcSpec, opt calc.ParseOptions) (task.Task, error) {
	if err := s.checkPartialCredit(); err != nil {
		return nil, err
	}
	if err := s.checkObserve(); err != nil {
		return nil, err
	}
	spec := s.Levels
	if spec == "" {
		spec = calc.DefaultLevelsSpec
	}
	ls, err := calc.ParseLevelsWith(spec, opt)
	if err != nil {
		return nil, &task.SpecError{Key: "levels", Err: err}
	}
	t := &calcTask{spec: s.Levels, levels: ls, partialCredit: s.PartialCredit, observeOpt: s.Observe, ops: calc.Ops[:]}
	if ls.Branches() || s.Observe == ObserveOn {
		t.ops = calc.BranchOps[:]
		if s.Observe != ObserveOff {
			t.observation = interp.ObserveSigns
		}
	}
	for i := range t.levels {
		l := &t.levels[i]
		t.info = append(t.info, task.Level{Name: l.Expr.String(), Context: l.Vars(), Budget: l.Budget, Shortest: l.ShortestLen()})
	}
	return t, nil
}

func (*calcTask) Name() string  { return "calc" }
func (*calcTask) Answer() int32 { return calc.ANS }

// NotActions are the digits and CTX: they do nothing as actions, and a
// policy that may write them spends its budget and its exploration on them.
func (*calcTask) NotActions() []int32      { return []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, task.CTX} }
func (*calcTask) HoldsOut() bool           { return true }
func (t *calcTask) Vocab() int             { return len(t.ops) }
func (t *calcTask) Levels() []task.Level   { return t.info }
func (t *calcTask) Ops() []interp.Op       { return append([]interp.Op(nil), t.ops...) }
func (t *calcTask) PartialCredit() float64 { return t.partialCredit }

// RewardNote says what partial credit adds (taskkit.InnerCreditNote).
func (t *calcTask) RewardNote() string { return taskkit.InnerCreditNote(t.partialCredit) }

// TokenName spells a token of the task's vocabulary; "[?]" beyond it (NEG
// and SWAP on the 19-token machine).
func (t *calcTask) TokenName(tok int32) string {
	if tok < 0 || int(tok) >= len(t.ops) {
		return "[?]"
	}
	return calc.TokenName(tok)
}

// Observations is 9 (the signs of v and v−m) when the task observes, else 0.
func (t *calcTask) Observations() int { return t.observation.Observations() }

// ObservationName spells a sign observation, "v<0 v<m" … "v>0 v>m".
func (t *calcTask) ObservationName(obs int32) string { return calc.ObservationName(obs) }

// Observation is the kind of the task's observation, as data for an engine
// that computes it itself (a GPU: interp.ObserveSigns is Machine.Observe).
func (t *calcTask) Observation() interp.Observation { return t.observation }

// SubsetNames are the evaluation subsets of calc.Expr.Subsets.
func (*calcTask) SubsetNames() []string { return append([]string(nil), calc.SubsetNames...) }

// Subsets is the bitmask of the subsets in is in (calc.Expr.Subsets).
func (t *calcTask) Subsets(in *task.Instance) uint32 {
	if in.Level < 0 || int(in.Level) >= len(t.levels) {
		return 0 // not one of its instances (Check says why)
	}
	d := interp.Get(in.Data[:]).Digits
	return t.levels[in.Level].Expr.Subsets(&d)
}

// Instances lists level's instances of split in tuple order
// (calc.Levels.Instances): all its held-out ones for an exact evaluation.
func (t *calcTask) Instances(level int, split task.Split, max int) []task.Instance {
	cs := t.levels.Instances(level, split == task.HeldOut, max)
	out := make([]task.Instance, len(cs))
	for i := range cs {
		out[i] = taskkit.FromCalc(cs[i])
	}
	return out
}

var (
	_ task.Interpreted = (*calcTask)(nil)
	_ task.Tuned       = (*calcTask)(nil)
	_ task.Observer    = (*calcTask)(nil)
	_ task.Subsetter   = (*calcTask)(nil)
	_ task.Enumerator  = (*calcTask)(nil)
)

// DefaultTuning is partial credit and a stronger entropy bonus over a
// longer schedule: the entropy term is averaged over all T steps of the
// rollout, most of them after the answer in the short levels, so at the
// seed task's 0.1 the memory levels' exploration died before M−V was found
// (docs/recipes.md, ablations, "Calc"). The
// decay's length is its own: -updates 40000 explores as briefly as the
// default and stops as soon.
func (t *calcTask) DefaultTuning() task.Tuning {
	return task.Tuning{Spec: CalcSpec{Levels: t.spec, PartialCredit: 0.3, Observe: t.observeOpt}.String(), EntropyCoef: 0.5, Updates: 6000, EntropyUpdates: 6000}
}

func (t *calcTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	return taskkit.FromCalc(t.levels.Draw(key, round, episode, purpose, level, split == task.HeldOut))
}

func (t *calcTask) Score(in *task.Instance, program []int32) task.Outcome {
	o := calc.RunOps(taskkit.ToCalc(in), program, t.partialCredit, t.ops)
	return task.Outcome{Reward: o.Reward, Correct: o.Correct}
}

func (t *calcTask) Explain(in *task.Instance, program []int32) task.Explanation {
	c := taskkit.ToCalc(in)
	o, trace := calc.TraceOps(c, program, t.partialCredit, t.ops, nil)
	ex := task.Explanation{
		Level: int(in.Level), Name: t.info[in.Level].Name, Context: append([]int32(nil), c.Digits[:c.Vars]...),
		Target: fmt.Sprint(c.Target), Reward: o.Reward, Correct: o.Correct,
	}
	if !o.Answered {
		ex.Note = "no answer within the budget"
	}
	for _, a := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(a))
	}
	for _, s := range trace {
		state := fmt.Sprintf("v=%d m=%d", s.Machine.V, s.Machine.M)
		if s.Operand >= 0 {
			state += fmt.Sprintf(" (%c=%d)", 'a'+s.Machine.P-1, s.Operand)
		}
		if t.observation != interp.ObserveNone {
			state += " · obs " + calc.ObservationName(s.Observation())
		}
		ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(s.Token), State: state})
	}
	return ex
}

// NewEnv steps calc's episodes (taskkit.CalcEnv: calc.Episode on the op
// table, the reward paid at the answer), observing when the task does.
func (t *calcTask) NewEnv(rows int) task.Env {
	return taskkit.NewCalcEnv(rows, t.partialCredit, t.ops, t.observation != interp.ObserveNone)
}

var _ task.Stepper = (*calcTask)(nil)

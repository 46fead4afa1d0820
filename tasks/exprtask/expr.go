package exprtask

import (
	"fmt"
	"slices"
	"strings"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/expr"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
)

// exprTask is the expression family of package env/expr: the context shows
// an expression over a, b, c, … (its tokens, not its operands' digits), and
// the policy writes a program of calc's tools that computes it on operands
// it never sees. Level k is the size k+2 (leaves); its items are the
// members of that size in the split's training or held-out part.
type exprTask struct {
	spec   ExprSpec
	info   []task.Level
	items  taskkit.Splits[*expr.Member] // per level, per split (Training, HeldOut, Transfer)
	byText map[string]*expr.Member
	ops    []interp.Op
}

func init() {
	task.Register("expr", OpenExpr)
	task.RegisterSpecEditor("expr", specEditor{})
}

// OpenExpr is the expr task of a spec (ExprSpec: "leaves=6; split=pattern;
// partial_credit=0.3"), as Open("expr", spec) opens it.
func OpenExpr(spec string) (task.Task, error) {
	s, err := ParseExprSpec(spec)
	if err != nil {
		return nil, err
	}
	return ExprOf(s)
}

// ExprOf is the expr task of the options s: sizes 2..s.Leaves, split
// s.Split, partial credit s.PartialCredit.
func ExprOf(s ExprSpec) (task.Task, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	t := &exprTask{spec: s, byText: map[string]*expr.Member{}, ops: expr.Ops()}
	for n := 2; n <= s.leaves(); n++ {
		members := expr.Family(n)
		part := s.Split.Parts(n, s.leaves())
		var parts [3][]*expr.Member
		l := task.Level{Name: fmt.Sprintf("%d leaves", n), Shortest: calc.MaxBudget}
		for i := range members {
			m := &members[i]
			split := [...]task.Split{expr.PartTraining: task.Training, expr.PartHeldOut: task.HeldOut, expr.PartTransfer: task.Transfer}[part[i]]
			parts[split] = append(parts[split], m)
			t.byText[m.Spelling] = m
			l.Context = max(l.Context, len(m.Shown))
			l.Budget = max(l.Budget, m.Budget)
			l.Shortest = min(l.Shortest, m.Shortest())
		}
		t.items = append(t.items, parts)
		t.info = append(t.info, l)
	}
	return t, nil
}

func (*exprTask) Name() string               { return "expr" }
func (*exprTask) Vocab() int                 { return expr.Vocab }
func (*exprTask) TokenName(tok int32) string { return expr.TokenName(tok) }
func (*exprTask) Answer() int32              { return calc.ANS }
func (*exprTask) HoldsOut() bool             { return true }
func (t *exprTask) Levels() []task.Level     { return t.info }
func (t *exprTask) Ops() []interp.Op         { return append([]interp.Op(nil), t.ops...) }
func (t *exprTask) PartialCredit() float64   { return t.spec.PartialCredit }

// RewardNote says what partial credit adds (taskkit.InnerCreditNote).
func (t *exprTask) RewardNote() string { return taskkit.InnerCreditNote(t.spec.PartialCredit) }

// OrderSensitive: the expression is spelled by its context's order.
func (*exprTask) OrderSensitive() bool { return true }

// Unstaged: one level embedding for every size, so that the policy must
// read from the context what to compute.
func (*exprTask) Unstaged() {}

// NotActions are the digits, CTX and every context token: the policy reads
// the expression and writes only tools.
func (*exprTask) NotActions() []int32 {
	out := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, task.CTX}
	for tok := int32(expr.FirstLeaf); tok < expr.Vocab; tok++ {
		out = append(out, tok)
	}
	return out
}

// DefaultTuning is the expr recipe (docs/recipes.md, "The expr recipe";
// its results: docs/results.md, "Expr"): calc's partial credit 0.3 and
// strong entropy bonus (0.5, decaying over 10,000 updates, here to a floor
// of 0.02, without which seed 1's policy stopped finding the programs of
// its last training items), the context read token by token and reversed, the
// expressions it fails drawn most, a GRU 128 wide, and up to 20,000
// updates. No replay: the buffer of verified programs replayed (64 a batch,
// ReplayCoef's weight, which -replay turns back on) generalised worse
// (docs/recipes.md, ablations, "Expr").
func (t *exprTask) DefaultTuning() task.Tuning {
	s := t.spec
	s.PartialCredit, s.Reversed = 0.3, true
	return task.Tuning{Spec: s.String(), EntropyCoef: 0.5, Updates: 20000, EntropyUpdates: 10000, EntropyFinal: 0.02,
		Context: "read", Replay: 0, ReplayCoef: 1, ItemFocus: true, Hidden: 128}
}

// Items is how many members of level's size split has (0 for a split the
// task does not have).
func (t *exprTask) Items(level int, split task.Split) int { return t.items.Count(level, split) }

// Draw draws an item of level uniformly from split's (another split's
// when split has none there, see taskkit.Splits.Drawn) and its operands uniformly from
// 0–9: the item from step 0 of the counter-based stream, the digits from
// step 1, so that DrawItem with that item gives the same instance. It
// allocates nothing.
func (t *exprTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	split, item := t.items.Draw(key, round, episode, purpose, level, split)
	return t.DrawItem(key, round, episode, purpose, level, split, item)
}

// DrawItem is Draw with the item given: an index into Items(level, split),
// or into the other split's when split has none there; another index
// panics, as an index out of range does.
func (t *exprTask) DrawItem(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split, item int) task.Instance {
	m := t.items.Item(level, split, item)
	d := tupleOf(key.Block(round, episode, 1, purpose), m.Leaves)
	return t.instance(level, item, m, &d)
}

// instance is item (of level, the member m) on the operands d.
func (t *exprTask) instance(level, item int, m *expr.Member, d *[calc.MaxVars]int32) task.Instance {
	in := task.Instance{Level: int32(level), Budget: int32(m.Budget), Item: int32(item), NContext: int32(len(m.Shown))}
	o := interp.Operands{Vars: int32(m.Leaves), Target: m.Expr.Eval(d)}
	copy(o.Digits[:], d[:m.Leaves])
	var inner [calc.MaxInner]int64
	o.NInner = m.Expr.Inner(d, &inner)
	copy(o.Inner[:], inner[:o.NInner])
	o.Put(in.Data[:])
	copy(in.Context[:], m.Shown)
	if t.spec.Reversed {
		slices.Reverse(in.Context[:len(m.Shown)])
	}
	return in
}

// tupleSpace is 10^n, the operand tuples of n leaves.
func tupleSpace(n int) uint64 {
	s := uint64(1)
	for range n {
		s *= 10
	}
	return s
}

// Score runs program on calc's machine from the op table, as the GPU does.
func (t *exprTask) Score(in *task.Instance, program []int32) task.Outcome {
	o := calc.RunOps(taskkit.ToCalc(in), program, t.spec.PartialCredit, t.ops)
	return task.Outcome{Reward: o.Reward, Correct: o.Correct}
}

// member is in's expression, found by its context (nil if none of the
// task's: Check says why).
func (t *exprTask) member(in *task.Instance) *expr.Member {
	if in.NContext < 0 || in.NContext > task.MaxContext {
		return nil
	}
	var b strings.Builder
	for k := range in.NContext {
		if t.spec.Reversed {
			k = in.NContext - 1 - k
		}
		b.WriteString(expr.TokenName(in.Context[k]))
	}
	m := t.byText[b.String()]
	if m == nil || int(in.Level) >= len(t.items) || m.Leaves != int(in.Level)+2 {
		return nil
	}
	return m
}

// Verify reports whether program computes in's expression on every operand
// tuple within the expression's budget. Checking the 2^n tuples of zeros
// and ones is a proof: whatever the tokens, the machine's answer is a
// polynomial in the operands of degree at most one in each (each operand is
// read once, MUL multiplies by an operand not yet read), as is the
// expression, and two such polynomials that agree on {0,1}^n are equal. The
// verifyTuples from 0–9 are a second look. It runs the machine that Score
// runs, about 200 runs.
func (t *exprTask) Verify(in *task.Instance, program []int32) bool {
	m := t.member(in)
	if m == nil {
		return false
	}
	c := calc.Instance{Vars: int32(m.Leaves), Budget: int32(m.Budget)}
	try := func() bool {
		c.Target = m.Expr.Eval(&c.Digits)
		return calc.RunOps(c, program, 0, t.ops).Correct
	}
	for mask := 0; mask < 1<<m.Leaves; mask++ {
		for k := range m.Leaves {
			c.Digits[k] = int32(mask >> k & 1)
		}
		if !try() {
			return false
		}
	}
	for i := range verifyTuples {
		copy(c.Digits[:m.Leaves], verifyTuples[i][:m.Leaves])
		if !try() {
			return false
		}
	}
	return true
}

// verifyTuples are 64 fixed operand tuples of 0–9 (Verify).
var verifyTuples = func() (ts [64][calc.MaxVars]int32) {
	key := rng.NewKey(0xe4e7_0001)
	for i := range ts {
		for j := range 2 {
			w := key.Block(0, uint32(i), uint32(j), rng.PurposeEval)
			for k := range 4 {
				ts[i][4*j+k] = int32(rng.Below(w[k], 10))
			}
		}
	}
	return ts
}()

// SubsetNames are calc's evaluation subsets (calc.Expr.Subsets); with only
// + − ×, tie is always empty.
func (*exprTask) SubsetNames() []string { return append([]string(nil), calc.SubsetNames...) }

// Subsets is in's bitmask of calc's subsets, on its expression.
func (t *exprTask) Subsets(in *task.Instance) uint32 {
	m := t.member(in)
	if m == nil {
		return 0
	}
	d := interp.Get(in.Data[:]).Digits
	return m.Expr.Subsets(&d)
}

// instancesPerItem is how many operand tuples Instances lists per item.
const instancesPerItem = 8

// Count is how many instances Instances lists of level's split (task.Counted).
func (t *exprTask) Count(level int, split task.Split) int {
	return t.Items(level, split) * instancesPerItem
}

// instancesKey draws Instances' tuples.
var instancesKey = rng.NewKey(0xe4e7_0002)

// Instances lists split's items of level in order, each on
// instancesPerItem fixed operand tuples: the first has a zero, the second
// two equal neighbouring operands, the third a negative inner value when
// one of 64 tries finds one (a+b·c has none), the rest uniform; at most max
// (0: all). The tuples depend on the item's expression only.
func (t *exprTask) Instances(level int, split task.Split, max int) []task.Instance {
	if t.Items(level, split) == 0 {
		return nil
	}
	items := t.items[level][split]
	var out []task.Instance
	for item, m := range items {
		id := taskkit.FNV32(m.Spelling)
		for j := uint32(0); j < instancesPerItem; j++ {
			if max > 0 && len(out) == max {
				return out
			}
			w := instancesKey.Block(id, j, 0, rng.PurposeEval)
			d := tupleOf(w, m.Leaves)
			switch j {
			case 0:
				d[rng.Below(w[2], uint32(m.Leaves))] = 0
			case 1:
				k := rng.Below(w[2], uint32(m.Leaves-1))
				d[k+1] = d[k]
			case 2:
				for try := uint32(1); try <= 64; try++ {
					e := tupleOf(instancesKey.Block(id, j, try, rng.PurposeEval), m.Leaves)
					if m.Expr.Subsets(&e)&calc.SubsetNegative != 0 {
						d = e
						break
					}
				}
			}
			out = append(out, t.instance(level, item, m, &d))
		}
	}
	return out
}

// tupleOf is the operand tuple of n leaves that a block's first two words
// draw (as Draw does), a the least significant digit.
func tupleOf(w [4]uint32, n int) (d [calc.MaxVars]int32) {
	idx := taskkit.Below(w[0], w[1], tupleSpace(n))
	for k := 0; k < n; k++ {
		d[k] = int32(idx % 10)
		idx /= 10
	}
	return d
}

// Explain is calc's explanation, the expression spelled in the note and the
// operands as the context.
func (t *exprTask) Explain(in *task.Instance, program []int32) task.Explanation {
	c := taskkit.ToCalc(in)
	o, trace := calc.TraceOps(c, program, t.spec.PartialCredit, t.ops, nil)
	ex := task.Explanation{Level: int(in.Level), Context: append([]int32(nil), c.Digits[:c.Vars]...),
		Target: fmt.Sprint(c.Target), Reward: o.Reward, Correct: o.Correct}
	if int(in.Level) >= 0 && int(in.Level) < len(t.info) {
		ex.Name = t.info[in.Level].Name
	}
	var shown strings.Builder
	for _, tok := range in.Context[:max(0, min(int(in.NContext), task.MaxContext))] {
		shown.WriteString(expr.TokenName(tok))
	}
	ex.Note = "expression " + shown.String()
	if m := t.member(in); m != nil && t.spec.Reversed {
		ex.Note = "expression " + m.Spelling + ", shown reversed as " + shown.String()
	}
	if !o.Answered {
		ex.Note += "; no answer within the budget"
	}
	for _, a := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(a))
	}
	for _, s := range trace {
		state := fmt.Sprintf("v=%d m=%d", s.Machine.V, s.Machine.M)
		if s.Operand >= 0 {
			state += fmt.Sprintf(" (%c=%d)", 'a'+s.Machine.P-1, s.Operand)
		}
		ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(s.Token), State: state})
	}
	return ex
}

// NewEnv steps the episodes as calc's task does (taskkit.CalcEnv: calc.Episode on
// the op table), without observations.
func (t *exprTask) NewEnv(rows int) task.Env {
	return taskkit.NewCalcEnv(rows, t.spec.PartialCredit, t.ops, false)
}

var (
	_ task.Interpreted = (*exprTask)(nil)
	_ task.Stepper     = (*exprTask)(nil)
	_ task.Unstaged    = (*exprTask)(nil)
	_ task.Itemized    = (*exprTask)(nil)
	_ task.Enumerator  = (*exprTask)(nil)
	_ task.Counted     = (*exprTask)(nil)
	_ task.Subsetter   = (*exprTask)(nil)
	_ task.Tuned       = (*exprTask)(nil)
)

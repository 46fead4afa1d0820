package exprtask

import (
	"math"
	"slices"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/expr"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

func openExpr(t *testing.T, spec string) *exprTask {
	t.Helper()
	tk, err := task.Open("expr", spec)
	require.NoError(t, err)
	return tk.(*exprTask)
}

// TestExprSpecRoundTrips: String writes what ParseExprSpec reads back, the
// defaults as "".
func TestExprSpecRoundTrips(t *testing.T) {
	for _, spec := range []string{"", "leaves=7", "leaves=3; split=length", "split=pattern; partial_credit=0.3",
		"leaves=4; split=expressions; partial_credit=0.1"} {
		s, err := ParseExprSpec(spec)
		require.NoError(t, err, spec)
		got, err := ParseExprSpec(s.String())
		require.NoError(t, err)
		require.Equal(t, s, got, spec)
		require.Equal(t, math.Float64bits(s.PartialCredit), math.Float64bits(got.PartialCredit))
	}
	s, err := ParseExprSpec(" partial_credit = 0.5 ;leaves= 5 ; split =pattern; order = reversed")
	require.NoError(t, err)
	require.Equal(t, ExprSpec{Leaves: 5, Split: expr.SplitPattern, PartialCredit: 0.5, Reversed: true}, s)
	require.Equal(t, "leaves=5; split=pattern; partial_credit=0.5; order=reversed", s.String())
	s, err = ParseExprSpec("order=forward")
	require.NoError(t, err)
	require.False(t, s.Reversed)
	require.Empty(t, ExprSpec{}.String())
	require.Empty(t, ExprSpec{Leaves: 6}.String())
	require.Equal(t, ExprSpec{Leaves: 6}, func() ExprSpec { s, _ := ParseExprSpec(""); return s }())
}

// TestExprSpecRefuses: each malformed spec is one error naming its option.
func TestExprSpecRefuses(t *testing.T) {
	for _, c := range []struct{ spec, key, want string }{
		{"leaves", "task_spec", "not key=value"},
		{"leaves=3; leaves=4", "task_spec", "leaves given twice"},
		{"levels=a*b", "task_spec", `expr has no option "levels" (it takes leaves, split, partial_credit and order)`},
		{"order=backwards", "order", `"backwards" is not forward or reversed`},
		{"leaves=x", "leaves", `"x" is not a whole number`},
		{"leaves=1", "leaves", "must be in 2..7, got 1"},
		{"leaves=8", "leaves", "must be in 2..7, got 8"},
		{"split=tuples", "split", `"tuples" is not expressions, pattern or length`},
		{"partial_credit=x", "partial_credit", `"x" is not a number`},
		{"partial_credit=11", "partial_credit", "must be in [0, 10], got 11"},
	} {
		_, err := ParseExprSpec(c.spec)
		var se *task.SpecError
		require.ErrorAs(t, err, &se, c.spec)
		require.Equal(t, c.key, se.Key, c.spec)
		require.ErrorContains(t, err, c.want, c.spec)
		_, err = task.Open("expr", c.spec)
		require.ErrorContains(t, err, c.want, c.spec)
	}
	_, err := ExprOf(ExprSpec{Split: 5})
	require.ErrorContains(t, err, "split: Split(5) is not expressions, pattern or length")
}

func TestExprDeclarations(t *testing.T) {
	et := openExpr(t, "")
	require.Equal(t, "expr", et.Name())
	require.Equal(t, 31, et.Vocab())
	require.Equal(t, int32(task.CTX), task.ContextEnd(et))
	require.Equal(t, int32(calc.ANS), et.Answer())
	require.Equal(t, 1, task.Stages(et))
	require.Equal(t, 0, task.Stage(et, 4))
	require.True(t, et.HoldsOut())
	require.Equal(t, []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}, et.NotActions())
	var names []string
	for tok := int32(0); tok <= 31; tok++ {
		names = append(names, et.TokenName(tok))
	}
	require.Equal(t, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "[CTX]", "[LOAD]", "[ADD]", "[SUB]", "[MUL]",
		"[STO]", "[M+V]", "[M-V]", "[ANS]", "a", "b", "c", "d", "e", "f", "g", "(", ")", "+", "-", "*", "[?]"}, names)
	ops := et.Ops()
	require.Len(t, ops, 31)
	require.Equal(t, calc.Ops[:], ops[:calc.Vocab])
	for _, op := range ops[calc.Vocab:] {
		require.Equal(t, interp.KindNone, op.Kind)
	}
	ops[calc.LOAD] = interp.Op{}
	require.Equal(t, calc.Ops[calc.LOAD], et.Ops()[calc.LOAD], "Ops is a copy")
	require.Equal(t, task.Tuning{Spec: "partial_credit=0.3; order=reversed", EntropyCoef: 0.5, Updates: 20000, EntropyUpdates: 10000,
		EntropyFinal: 0.02, Context: "read", Replay: 0, ReplayCoef: 1, ItemFocus: true, Hidden: 128}, et.DefaultTuning())
	require.Equal(t, "leaves=7; split=length; partial_credit=0.3; order=reversed", openExpr(t, "leaves=7; split=length; partial_credit=0.9").DefaultTuning().Spec)
	require.Equal(t, []string{"tie", "zero", "negative"}, et.SubsetNames())
}

// TestExprLevels: one level per size, its context the longest of the size,
// its budget the largest, its shortest the smallest.
func TestExprLevels(t *testing.T) {
	require.Equal(t, []task.Level{
		{Name: "2 leaves", Context: 3, Budget: 5, Shortest: 3},
		{Name: "3 leaves", Context: 7, Budget: 8, Shortest: 4},
		{Name: "4 leaves", Context: 9, Budget: 9, Shortest: 5},
		{Name: "5 leaves", Context: 13, Budget: 12, Shortest: 6},
		{Name: "6 leaves", Context: 15, Budget: 13, Shortest: 7},
	}, openExpr(t, "").Levels())
	l7 := openExpr(t, "leaves=7").Levels()
	require.Len(t, l7, 6)
	for _, l := range l7 {
		require.LessOrEqual(t, l.Context, task.MaxContext, "the longest context fits")
	}
	require.Equal(t, task.Level{Name: "7 leaves", Context: 19, Budget: 16, Shortest: 8}, l7[5])
	require.Len(t, openExpr(t, "leaves=2").Levels(), 1)
}

// TestExprItems: each split's training, held-out and transfer items of a
// size are the size's members, disjoint, in family order.
func TestExprItems(t *testing.T) {
	for _, spec := range []string{"", "split=pattern", "split=length", "leaves=7", "leaves=7; split=length"} {
		et := openExpr(t, spec)
		for lv := range et.Levels() {
			members := expr.Family(lv + 2)
			require.Equal(t, len(members), et.Items(lv, task.Training)+et.Items(lv, task.HeldOut)+et.Items(lv, task.Transfer), spec)
			seen := map[string]task.Split{}
			for _, sp := range []task.Split{task.Training, task.HeldOut, task.Transfer} {
				last := -1
				for _, m := range et.items[lv][sp] {
					_, dup := seen[m.Spelling]
					require.False(t, dup)
					seen[m.Spelling] = sp
					idx := -1
					for i := range members {
						if &members[i] == m {
							idx = i
						}
					}
					require.Greater(t, idx, last, "family order")
					last = idx
				}
			}
			require.Len(t, seen, len(members))
		}
	}
	require.Equal(t, 0, openExpr(t, "split=length").Items(4, task.Training))
	require.Equal(t, 0, openExpr(t, "split=length").Items(4, task.HeldOut))
	require.Equal(t, 843, openExpr(t, "split=length").Items(4, task.Transfer))
	require.Equal(t, 39, openExpr(t, "split=length").Items(3, task.HeldOut))
	require.Equal(t, 0, openExpr(t, "split=length").Items(3, task.Transfer))
	require.Equal(t, 0, openExpr(t, "split=pattern").Items(0, task.Transfer))
	require.Equal(t, 1, openExpr(t, "split=pattern").Items(0, task.HeldOut))
	require.Equal(t, 70, openExpr(t, "split=pattern").Items(4, task.Transfer))
	require.Equal(t, 155, openExpr(t, "split=pattern").Items(4, task.HeldOut))
	require.Equal(t, 0, openExpr(t, "").Items(4, task.Transfer))
	require.Equal(t, 0, openExpr(t, "").Items(4, task.Split(9)), "no such split")
	require.Equal(t, 169, openExpr(t, "").Items(4, task.HeldOut))
	require.Equal(t, 1, openExpr(t, "").Items(0, task.HeldOut))
	require.Equal(t, -1, task.Items(seedtask.Seed(), 0, task.Training))
	require.Equal(t, 674, task.Items(openExpr(t, ""), 4, task.Training))
}

// TestExprDraw: a draw is a pure function of its arguments, allocates
// nothing, is DrawItem of the item it drew, shows its item's expression,
// passes Check, and covers every item and digit.
func TestExprDraw(t *testing.T) {
	et := openExpr(t, "leaves=7; partial_credit=0.3")
	key := rng.NewKey(11)
	for lv := range et.Levels() {
		for _, sp := range []task.Split{task.Training, task.HeldOut} {
			items := map[int32]bool{}
			digits := map[int32]bool{}
			for i := uint32(0); i < 3000; i++ {
				in := et.Draw(key, 7, i, rng.PurposeTask, lv, sp)
				require.Equal(t, in, et.Draw(key, 7, i, rng.PurposeTask, lv, sp))
				require.NoError(t, task.Check(et, &in))
				require.Equal(t, in, et.DrawItem(key, 7, i, rng.PurposeTask, lv, sp, int(in.Item)))
				m := et.items[lv][sp][in.Item]
				require.Equal(t, m.Shown, in.Context[:in.NContext])
				o := interp.Get(in.Data[:])
				require.Equal(t, int32(lv+2), o.Vars)
				require.Equal(t, int32(lv), in.Level)
				require.Equal(t, int32(m.Budget), in.Budget)
				d := o.Digits
				require.Equal(t, m.Expr.Eval(&d), o.Target)
				require.True(t, et.Score(&in, m.Program).Correct)
				items[in.Item] = true
				for _, x := range o.Digits[:o.Vars] {
					digits[x] = true
				}
			}
			require.Len(t, digits, 10)
			if n := et.Items(lv, sp); n <= 200 {
				require.Len(t, items, n, "level %d %v: every item drawn", lv, sp)
			}
		}
	}
	a := et.Draw(key, 1, 2, rng.PurposeTask, 3, task.Training)
	require.NotEqual(t, a, et.Draw(key, 1, 2, rng.PurposeEval, 3, task.Training), "the purpose is an argument")
	require.NotEqual(t, a, et.Draw(key, 2, 2, rng.PurposeTask, 3, task.Training))
	var sink task.Instance
	require.Zero(t, testing.AllocsPerRun(200, func() {
		sink = et.Draw(key, 3, 4, rng.PurposeTask, 5, task.Training)
		sink = et.DrawItem(key, 3, 4, rng.PurposeTask, 5, task.HeldOut, 17)
	}))
	_ = sink
}

// TestExprDrawWithoutItems: a split without items at a level draws from
// the first split that has some (documented: the trainer never asks for
// it), and lists nothing.
func TestExprDrawWithoutItems(t *testing.T) {
	et := openExpr(t, "split=length")
	key := rng.NewKey(3)
	in := et.Draw(key, 1, 1, rng.PurposeTask, 4, task.Training)
	require.NoError(t, task.Check(et, &in))
	require.Equal(t, et.items[4][task.Transfer][in.Item].Shown, in.Context[:in.NContext])
	in = et.Draw(key, 1, 1, rng.PurposeEval, 3, task.Transfer)
	require.NoError(t, task.Check(et, &in))
	require.Equal(t, et.items[3][task.Training][in.Item].Shown, in.Context[:in.NContext])
	require.Nil(t, et.Instances(3, task.Transfer, 0))
}

// TestExprScoreIsCalc: Score is calc.RunOps on the task's table, which the
// GPU interprets, for random programs (context tokens included).
func TestExprScoreIsCalc(t *testing.T) {
	et := openExpr(t, "partial_credit=0.3")
	key := rng.NewKey(4)
	for i := uint32(0); i < 5000; i++ {
		lv := int(i % 5)
		in := et.Draw(key, 1, i, rng.PurposeTask, lv, task.Split(i%2))
		prog := make([]int32, 1+i%16)
		for j := range prog {
			w := key.Block(2, i, uint32(j), rng.PurposeAction)
			prog[j] = int32(calc.LOAD + w[0]%8)
			if w[1]%10 == 0 {
				prog[j] = int32(w[2] % 31)
			}
		}
		o := interp.Get(in.Data[:])
		c := calc.Instance{Level: in.Level, Vars: o.Vars, Budget: in.Budget, Target: o.Target, NInner: o.NInner}
		copy(c.Digits[:], o.Digits[:])
		copy(c.Inner[:], o.Inner[:o.NInner])
		want := calc.RunOps(c, prog, 0.3, expr.Ops())
		got := et.Score(&in, prog)
		require.Equal(t, math.Float64bits(want.Reward), math.Float64bits(got.Reward))
		require.Equal(t, want.Correct, got.Correct)
	}
	// Partial credit: LOAD MUL holds a·b, one of a·b+c·d's two inner values.
	lv, sp, item := itemOf(t, et, "a*b+c*d")
	credited := 0
	for i := uint32(0); i < 100; i++ {
		in := et.DrawItem(key, 9, i, rng.PurposeTask, lv, sp, item)
		if o := interp.Get(in.Data[:]); o.Target != o.Inner[0] && o.Inner[0] != o.Inner[1] && int64(o.Digits[0]) != o.Inner[1] {
			require.Equal(t, 0.3*0.5, et.Score(&in, []int32{calc.LOAD, calc.MUL, calc.ANS}).Reward)
			credited++
		}
	}
	require.Greater(t, credited, 50)
}

// itemOf finds an expression's level, split and item.
func itemOf(t *testing.T, et *exprTask, spelling string) (int, task.Split, int) {
	for lv := range et.items {
		for sp, items := range et.items[lv] {
			for i, m := range items {
				if m.Spelling == spelling {
					return lv, task.Split(sp), i
				}
			}
		}
	}
	t.Fatalf("%s is not a member", spelling)
	return 0, 0, 0
}

// mutate is prog with token i replaced by the next tool (ANS by LOAD).
func mutate(prog []int32, i int) []int32 {
	out := append([]int32(nil), prog...)
	out[i] = calc.LOAD + (out[i]-calc.LOAD+1)%(calc.ANS-calc.LOAD+1)
	return out
}

// TestExprVerify: every member's program is accepted; a program with one
// token changed is accepted exactly when it still computes the member
// within its budget (the symbolic machine decides); a program too long for
// the budget, or on another level's expression, is refused.
func TestExprVerify(t *testing.T) {
	et := openExpr(t, "leaves=7")
	key := rng.NewKey(5)
	refused := 0
	for lv := range et.Levels() {
		for _, sp := range []task.Split{task.Training, task.HeldOut} {
			for item, m := range et.items[lv][sp] {
				in := et.DrawItem(key, 1, uint32(item), rng.PurposeTask, lv, sp, item)
				require.True(t, et.Verify(&in, m.Program), m.Spelling)
				for i := range m.Program {
					p := mutate(m.Program, i)
					got, ok := expr.RunSymbolic(p, expr.Ops(), m.Leaves, m.Budget)
					want := ok && got == m.Poly.Dense()
					require.Equal(t, want, et.Verify(&in, p), "%s: %s", m.Spelling, expr.ProgramText(p))
					if !want {
						refused++
					}
				}
				if item == 0 {
					long := append([]int32{calc.STO, calc.STO, calc.STO}, m.Program...)
					require.Equal(t, len(long) <= m.Budget, et.Verify(&in, long), m.Spelling)
					other := in
					other.Level = int32((lv + 1) % len(et.Levels()))
					require.False(t, et.Verify(&other, m.Program))
				}
			}
		}
	}
	require.Greater(t, refused, 40000)
	// A program right on some tuples only: a·b for a·b+c.
	in := et.Draw(key, 1, 1, rng.PurposeTask, 1, task.Training)
	in.NContext = int32(copy(in.Context[:], et.byText["a*b+c"].Shown))
	require.False(t, et.Verify(&in, []int32{calc.LOAD, calc.MUL, calc.ANS}))
	require.True(t, et.Verify(&in, []int32{calc.LOAD, calc.MUL, expr.Plus, calc.ADD, calc.ANS}), "context tokens do nothing")
}

func TestExprSteppingIsScoring(t *testing.T) {
	et := openExpr(t, "partial_credit=0.3")
	key := rng.NewKey(6)
	var acts []int32
	for tok := int32(calc.LOAD); tok <= calc.ANS; tok++ {
		acts = append(acts, tok)
	}
	acts = append(acts, calc.ANS, expr.Plus)
	for lv, l := range et.Levels() {
		for _, T := range []int{l.Shortest, l.Budget, l.Budget + 3} {
			const rows = 800
			ins := make([]task.Instance, rows)
			for r := range ins {
				ins[r] = et.Draw(key, uint32(T), uint32(r), rng.PurposeTask, lv, task.Split(r%2))
			}
			m := et.member(&ins[0])
			progs := tasktest.Programs(key, rows, T, acts, [][]int32{m.Program})
			tasktest.RequireSteppingIsScoring(t, et, task.NewEnv(et, rows), ins, progs, T)
			tasktest.RequireSteppingIsScoring(t, et, task.NewEnv(tasktest.ScoredOnly{Task: et}, rows), ins, progs, T)
		}
	}
}

// TestExprInstances: every item of the split on 8 fixed tuples, in order:
// a zero first, two equal neighbours second, a negative inner value third
// where one exists.
func TestExprInstances(t *testing.T) {
	et := openExpr(t, "")
	for lv := range et.Levels() {
		for _, sp := range []task.Split{task.Training, task.HeldOut} {
			ins := et.Instances(lv, sp, 0)
			require.Len(t, ins, 8*et.Items(lv, sp))
			require.Len(t, ins, et.Count(lv, sp), "Count says what Instances lists")
			require.Equal(t, ins, et.Instances(lv, sp, 0))
			require.Equal(t, ins[:5], et.Instances(lv, sp, 5))
			for i := range ins {
				in := &ins[i]
				require.NoError(t, task.Check(et, in))
				require.Equal(t, int32(i/8), in.Item)
				m := et.items[lv][sp][in.Item]
				require.Equal(t, m, et.member(in))
				require.True(t, et.Score(in, m.Program).Correct)
				o := interp.Get(in.Data[:])
				d := o.Digits[:o.Vars]
				switch i % 8 {
				case 0:
					require.Contains(t, d, int32(0))
					require.NotZero(t, et.Subsets(in)&calc.SubsetZero)
				case 1:
					equal := false
					for k := 1; k < len(d); k++ {
						equal = equal || d[k] == d[k-1]
					}
					require.True(t, equal, "%v", d)
				}
			}
		}
	}
	ins := et.Instances(1, task.Training, 0)
	for i := 0; i < len(ins); i += 8 {
		if et.member(&ins[i]).Spelling == "(a-b)*c" {
			require.NotZero(t, et.Subsets(&ins[i+2])&calc.SubsetNegative)
		}
	}
}

func TestExprExplain(t *testing.T) {
	et := openExpr(t, "partial_credit=0.3")
	m := et.byText["a*b+c*d"]
	lv, sp, item := itemOf(t, et, "a*b+c*d")
	in := et.DrawItem(rng.NewKey(1), 1, 1, rng.PurposeTask, lv, sp, item)
	ex := et.Explain(&in, m.Program)
	require.Equal(t, "4 leaves", ex.Name)
	require.Equal(t, "expression a*b+c*d", ex.Note)
	d := interp.Get(in.Data[:]).Digits
	require.Equal(t, d[:4], ex.Context)
	require.True(t, ex.Correct)
	require.Len(t, ex.Trace, 7)
	require.Equal(t, "[M+V]", ex.Trace[5].Token)
	ex = et.Explain(&in, []int32{calc.LOAD})
	require.Equal(t, "expression a*b+c*d; no answer within the budget", ex.Note)
	require.Contains(t, ex.Trace[0].State, "(a=")
}

// BenchmarkExprVerify: a 7-leaf member's program (Verify runs 2^7 + 64
// episodes).
func BenchmarkExprVerify(b *testing.B) {
	tk, err := task.Open("expr", "leaves=7")
	require.NoError(b, err)
	et := tk.(*exprTask)
	m := et.items[5][task.Training][0]
	in := et.DrawItem(rng.NewKey(1), 1, 1, rng.PurposeTask, 5, task.Training, 0)
	for b.Loop() {
		if !et.Verify(&in, m.Program) {
			b.Fatal("refused")
		}
	}
}

// TestExprReversed: order=reversed shows every expression last token first,
// and the task still knows it (Verify, Subsets, Explain read it back).
func TestExprReversed(t *testing.T) {
	fwd, rev := openExpr(t, "partial_credit=0.3"), openExpr(t, "partial_credit=0.3; order=reversed")
	key := rng.NewKey(5)
	for lv := range fwd.Levels() {
		for e := uint32(0); e < 40; e++ {
			a := fwd.Draw(key, 2, e, rng.PurposeTask, lv, task.Training)
			b := rev.Draw(key, 2, e, rng.PurposeTask, lv, task.Training)
			want := append([]int32(nil), a.Context[:a.NContext]...)
			slices.Reverse(want)
			require.Equal(t, want, b.Context[:b.NContext])
			require.Equal(t, a.Data, b.Data)
			require.NoError(t, task.Check(rev, &b))
			m := fwd.member(&a)
			require.Same(t, m, fwd.byText[m.Spelling])
			require.Equal(t, m.Spelling, rev.member(&b).Spelling)
			require.Equal(t, fwd.Subsets(&a), rev.Subsets(&b))
		}
	}
	in := rev.Draw(key, 1, 1, rng.PurposeTask, 1, task.Training)
	m := rev.member(&in)
	require.True(t, rev.Verify(&in, m.Program))
	require.Contains(t, rev.Explain(&in, m.Program).Note, "expression "+m.Spelling+", shown reversed as ")
}

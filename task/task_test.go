package task_test

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// TestSeedTaskIsTheEnvironment: the seed task draws and scores exactly as
// package env/seed does (the goldens and hashes rest on it).
func TestSeedTaskIsTheEnvironment(t *testing.T) {
	st := seedtask.Seed()
	key := rng.NewKey(7)
	prog := make([]int32, 6)
	for i := uint32(0); i < 3000; i++ {
		level := int(i % 3)
		want := seed.DrawTask(key, 5, i, rng.PurposeTask, level)
		in := st.Draw(key, 5, i, rng.PurposeTask, level, task.HeldOut)
		require.Equal(t, seedtask.FromEnv(want), in)
		require.Equal(t, in, st.Draw(key, 5, i, rng.PurposeTask, level, task.Training), "the seed task holds nothing out")
		var ctx [task.MaxContext + 1]int32
		n := in.WriteContext(ctx[:], task.CTX)
		var wantCtx [8]int32
		require.Equal(t, want.Context(wantCtx[:]), n)
		require.Equal(t, wantCtx[:n], ctx[:n])
		for s := range prog {
			prog[s] = int32(key.Block(9, i, uint32(s), rng.PurposeAction)[0] % seed.Vocab)
		}
		o := seed.Run(want, prog)
		require.Equal(t, task.Outcome{Reward: o.Reward, Correct: o.Correct}, task.Score(st, &in, prog))
	}
	ins := make([]task.Instance, 1) // as the engines hold them
	require.Zero(t, testing.AllocsPerRun(100, func() {
		ins[0] = st.Draw(key, 1, 2, rng.PurposeTask, 2, task.Training)
		task.Score(st, &ins[0], prog)
	}))
}

// TestCalcSplitsAreDisjoint: training draws and held-out draws of a calc
// level never share a digit tuple, and the held-out part is about a fifth.
func TestCalcSplitsAreDisjoint(t *testing.T) {
	ct, err := calctask.Calc("a*b+c, a*b+c*d", 0)
	require.NoError(t, err)
	key := rng.NewKey(3)
	for lv := range ct.Levels() {
		seen := map[[interp.MaxDigits]int32]task.Split{}
		for i := uint32(0); i < 4000; i++ {
			for _, split := range []task.Split{task.Training, task.HeldOut} {
				in := ct.Draw(key, 1, i, rng.PurposeTask, lv, split)
				require.Equal(t, int32(lv), in.Level)
				d := interp.Get(in.Data[:]).Digits
				if prev, ok := seen[d]; ok {
					require.Equalf(t, prev, split, "level %d: tuple %v drawn for both splits", lv, d)
				}
				seen[d] = split
			}
		}
		held := 0
		for _, s := range seen {
			if s == task.HeldOut {
				held++
			}
		}
		t.Logf("level %d: %d distinct tuples, %d held out", lv, len(seen), held)
		require.Greater(t, held, 0)
	}
	ins, prog := make([]task.Instance, 1), []int32{calc.LOAD, calc.MUL, calc.ANS}
	require.Zero(t, testing.AllocsPerRun(100, func() {
		ins[0] = ct.Draw(key, 1, 2, rng.PurposeTask, 1, task.HeldOut)
		task.Score(ct, &ins[0], prog)
	}))
}

// TestCalcScoresAndExplains: the shortest program of every default level is
// correct on its instances and the explanation says what each tool did.
func TestCalcScoresAndExplains(t *testing.T) {
	ct, err := calctask.Calc("", 0.3)
	require.NoError(t, err)
	require.Len(t, ct.Levels(), 6)
	key := rng.NewKey(11)
	for lv, l := range calc.DefaultLevels() {
		in := ct.Draw(key, 2, uint32(lv), rng.PurposeTask, lv, task.HeldOut)
		o := task.Score(ct, &in, l.Shortest)
		require.Truef(t, o.Correct, "level %d (%s)", lv, l.Expr)
		want := 1.0 // a shortest program holds every inner value on its way: all the partial credit
		if interp.Get(in.Data[:]).NInner > 0 {
			want += 0.3
		}
		require.Equalf(t, want, o.Reward, "level %d", lv)
		ex := task.Explain(ct, &in, l.Shortest)
		require.True(t, ex.Correct)
		require.Equal(t, l.Expr.String(), ex.Name)
		require.Len(t, ex.Trace, len(l.Shortest))
		require.Contains(t, ex.Trace[0].State, "v=")
		require.Contains(t, ex.Trace[0].State, "m=")
	}
	// a·b answered on a·b+c·d: right only when c·d = 0; wrong, it earns the
	// credit for the one inner value it held (a·b), 0.3 × 1/2, unless c·d
	// happened to equal a value v held on the way (a, or a·b).
	for i := uint32(0); i < 200; i++ {
		in := ct.Draw(key, 3, i, rng.PurposeTask, 3, task.HeldOut)
		o := task.Score(ct, &in, []int32{calc.LOAD, calc.MUL, calc.ANS})
		d := interp.Get(in.Data[:]).Digits
		cd := int64(d[2] * d[3])
		require.Equal(t, cd == 0, o.Correct, "%v", d)
		if !o.Correct && int64(d[0]*d[1]) != cd && int64(d[0]) != cd {
			require.Equal(t, 0.3*(1.0/2.0), o.Reward, "%v", d)
		}
	}
}

// TestOpenRefuses: unknown tasks, options for the seed task, and a level no
// program within its budget computes are refused with a line that says why.
func TestOpenRefuses(t *testing.T) {
	_, err := task.Open("chess", "")
	require.ErrorContains(t, err, `unknown task "chess" (registered: calc, countdown3, countdown4, expr, game24, seed`)
	_, err = task.Open("seed", "levels=a*b")
	require.ErrorContains(t, err, "the seed task takes no options")
	_, err = task.Open("calc", "levels=a*b, a*c+b")
	require.ErrorContains(t, err, "no program")
	_, err = task.Open("calc", "levels=a*b, (a*b")
	var se *task.SpecError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "levels", se.Key)
	ct, err := task.Open("calc", "levels=a*b, a*b+c*d")
	require.NoError(t, err)
	require.Equal(t, []task.Level{{Name: "a*b", Context: 2, Budget: 5, Shortest: 3}, {Name: "a*b+c*d", Context: 4, Budget: 9, Shortest: 7}}, ct.Levels())
}

// TestCheck: every drawn instance passes; one field out of range at a time
// is refused with a line naming it.
func TestCheck(t *testing.T) {
	ct, err := calctask.Calc("a*b, a*b+c*d", 0.3)
	require.NoError(t, err)
	key := rng.NewKey(1)
	for _, tk := range []task.Task{seedtask.Seed(), ct} {
		for lv := range tk.Levels() {
			for i := uint32(0); i < 200; i++ {
				in := tk.Draw(key, 1, i, rng.PurposeTask, lv, task.HeldOut)
				require.NoError(t, task.Check(tk, &in))
			}
		}
	}
	good := ct.Draw(key, 1, 0, rng.PurposeTask, 1, task.HeldOut)
	for _, c := range []struct {
		edit func(*task.Instance)
		want string
	}{
		{func(in *task.Instance) { in.Level = 2 }, "levels 0..1"},
		{func(in *task.Instance) { in.Level = -1 }, "levels 0..1"},
		{func(in *task.Instance) { in.NContext = task.MaxContext + 1 }, fmt.Sprintf("%d context tokens (0..%d)", task.MaxContext+1, task.MaxContext)},
		{func(in *task.Instance) { in.NContext = int32(ct.Levels()[1].Context + 1) }, "more than its level 1 (a*b+c*d) declares"},
		{func(in *task.Instance) { in.NContext = -1 }, "-1 context tokens"},
		{func(in *task.Instance) { in.Context[3] = int32(ct.Vocab()) }, "is not in the calc task's vocabulary"},
		{operands(func(o *interp.Operands) { o.Vars = interp.MaxDigits + 1 }), "9 digits"},
		{operands(func(o *interp.Operands) { o.Vars = -1 }), "-1 digits"},
		{operands(func(o *interp.Operands) { o.NInner = interp.MaxInner + 1 }), "17 inner values"},
		{operands(func(o *interp.Operands) { o.Digits[3] = task.CTX }), "digit 10 is not a digit"},
		{operands(func(o *interp.Operands) { o.Digits[0] = -2 }), "digit -2 is not a digit"},
	} {
		in := good
		c.edit(&in)
		require.ErrorContains(t, task.Check(ct, &in), c.want)
	}
	// A task whose programs do not run on the interpreted machine keeps
	// anything in its data, its own business; its context tokens are any of
	// its tokens, but no other.
	other := tasktest.ScoredOnly{Task: ct} // not Interpreted
	in := good
	operands(func(o *interp.Operands) { o.Digits[1], o.Vars = int32(ct.Vocab()-1), 99 })(&in)
	require.NoError(t, task.Check(other, &in))
	require.ErrorContains(t, task.Check(ct, &in), "99 digits")
	in = good
	in.Context[1] = int32(ct.Vocab() - 1)
	require.NoError(t, task.Check(other, &in))
	require.NoError(t, task.Check(ct, &in), "the context is what the policy reads, any of the task's tokens")
	in.Context[1] = int32(ct.Vocab())
	require.ErrorContains(t, task.Check(other, &in), "not in the calc task's vocabulary")
	in.Context[1] = -1
	require.ErrorContains(t, task.Check(other, &in), "context token -1")
}

// operands is an edit of an instance's interpreted operands (its data).
func operands(edit func(*interp.Operands)) func(*task.Instance) {
	return func(in *task.Instance) {
		o := interp.Get(in.Data[:])
		edit(&o)
		o.Put(in.Data[:])
	}
}

package calc

import (
	"testing"

	"github.com/simdrl/simdrl/internal/testsize"
	"github.com/stretchr/testify/require"
)

// The open-loop bounds of the observation curriculum within its budgets, as
// docs/tasks.md ("Branching levels and observations") documents them.
var documentedOpenLoop = []struct {
	expr               string
	fixed, perMultiset float64
}{
	{"abs(a-b)", 0.550, 0.640},
	{"max(a,b)", 0.550, 0.720},
	{"abs(a-b)*c", 0.595, 0.707},
	{"min(a,b)*c", 0.595, 0.777},
	{"max(a,b)+c", 0.550, 0.632},
	{"max(a*b,c*d)", 0.528, 0.695},
	{"abs(a*b-c*d)", 0.528, 0.692},
}

// interp.Observation is necessary: within its budget the best fixed sequence
// answers at most 60 % of a level's tuples, and the best sequence per digit
// multiset well under all. Run with -v for docs/tasks.md's table; -short skips the
// four-digit levels (seconds each).
func TestOpenLoopBounds(t *testing.T) {
	ls := observeLevels(t)
	require.Len(t, documentedOpenLoop, len(ls))
	t.Logf("%-14s %5s %6s %6s %12s", "level", "tree", "budget", "fixed", "per-multiset")
	for i, c := range documentedOpenLoop {
		l := &ls[i]
		require.Equal(t, c.expr, l.Expr.String())
		if !testsize.Long() && l.Vars() > 3 { // four variables: minutes of search
			continue
		}
		b, err := OpenLoop(l.Expr, l.Budget, 1_000_000)
		require.NoError(t, err)
		t.Logf("%-14s %5d %6d %6.3f %12.3f   best fixed: %s (%d states)", c.expr, l.ShortestLen(), l.Budget, b.Fixed, b.PerMultiset, ProgramString(b.Best), b.States)
		require.LessOrEqual(t, b.Fixed, 0.6)
		require.Less(t, b.PerMultiset, 0.8)
		require.GreaterOrEqual(t, b.PerMultiset, b.Fixed)
		require.InDelta(t, c.fixed, b.Fixed, 0.0005, c.expr)
		require.InDelta(t, c.perMultiset, b.PerMultiset, 0.0005, c.expr)
		// The best fixed sequence scores what the bound says.
		correct := 0
		for idx := uint64(0); idx < tupleSpace(l.Expr.vars); idx++ {
			var d [MaxVars]int32
			tupleDigits(idx, l.Expr.vars, &d)
			if v, ok := answer(b.Best, BranchOps[:], &d, l.Expr.vars); ok && v == l.Expr.Eval(&d) {
				correct++
			}
		}
		require.Equal(t, b.Fixed, float64(correct)/float64(tupleSpace(l.Expr.vars)))
	}
}

// A level a fixed program solves has bound 1; OpenLoop refuses what it
// cannot enumerate and stops at its cap.
func TestOpenLoopEdges(t *testing.T) {
	b, err := OpenLoop(mustExpr(t, "a*b+c"), 6, 100_000)
	require.NoError(t, err)
	require.Equal(t, 1.0, b.Fixed)
	require.Equal(t, 1.0, b.PerMultiset)
	require.Equal(t, "[LOAD] [MUL] [ADD] [ANS]", ProgramString(b.Best))
	_, err = OpenLoop(mustExpr(t, "max(a,e)"), 6, 100)
	require.EqualError(t, err, "max(a,e) shows 5 digits; OpenLoop enumerates at most 4")
	_, err = OpenLoop(mustExpr(t, "max(a,b)"), 7, 10)
	require.ErrorIs(t, err, errOpenLoopCap)
}

// OpenLoop's column-wise apply is Machine.Apply on every tuple.
func TestOpenLoopApplyIsApply(t *testing.T) {
	e := mustExpr(t, "a*b-c")
	o := &openLoop{e: e, n: 3, N: 1000}
	o.cols = make([][]int64, 3)
	o.digits = make([][MaxVars]int32, o.N)
	for k := range o.cols {
		o.cols[k] = make([]int64, o.N)
	}
	regs := make([]int64, 2*o.N)
	for i := range o.N {
		tupleDigits(uint64(i), 3, &o.digits[i])
		for k := range 3 {
			o.cols[k][i] = int64(o.digits[i][k])
		}
		regs[i], regs[o.N+i] = int64(i%17-8), int64(i%5-2)
	}
	child := make([]int64, 2*o.N)
	for tok := int32(FirstTool); tok < BranchVocab; tok++ {
		for p := int32(0); p < 3; p++ {
			np := o.apply(BranchOps[tok], regs, p, child)
			for i := range o.N {
				m := Machine{V: regs[i], M: regs[o.N+i], P: p}
				m.Apply(BranchOps[tok], &o.digits[i], 3)
				require.Equal(t, m, Machine{V: child[i], M: child[o.N+i], P: np}, "%s at p=%d", TokenName(tok), p)
			}
		}
	}
}

package calc

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The default curriculum with the lengths docs/tasks.md and the package doc document.
var documentedShortest = []struct {
	expr    string
	length  int
	program string
}{
	{"a*b", 3, "LOAD MUL ANS"},
	{"a*b+c", 4, "LOAD MUL ADD ANS"},
	{"(a*b+c)-d", 5, "LOAD MUL ADD SUB ANS"},
	{"a*b+c*d", 7, "LOAD MUL STO LOAD MUL M+V ANS"},
	{"(a*b+c)-(d*e)", 8, "LOAD MUL ADD STO LOAD MUL M-V ANS"},
	{"a*b+c*d-e*f", 11, "LOAD MUL STO LOAD MUL M+V STO LOAD MUL M-V ANS"},
}

var memoryTools = []int32{STO, MADD, MSUB}

func mustExpr(t testing.TB, s string) *Expr {
	t.Helper()
	e, err := ParseExpr(s)
	require.NoError(t, err)
	return e
}

func TestSearchFindsTheDocumentedShortestPrograms(t *testing.T) {
	for _, c := range documentedShortest {
		e := mustExpr(t, c.expr)
		start := time.Now()
		r := Search(e, MaxSearchLen)
		t.Logf("%-14s %2d tokens, %7d states, %v: %s", c.expr, len(r.Program), r.States, time.Since(start), ProgramString(r.Program))
		require.True(t, r.Found(), c.expr)
		require.Len(t, r.Program, c.length, "%s: %s", c.expr, ProgramString(r.Program))
		require.True(t, Computes(e, r.Program))
		require.Zero(t, r.Rejected)
		// Shortest means: nothing one token shorter.
		require.False(t, Search(e, c.length-1).Found(), c.expr)
	}
}

// Memory is needed exactly from the first memory level on: without STO, M+V
// and M−V the search still solves the first three levels and none of the rest.
func TestMemoryIsNeededFromTheFourthLevel(t *testing.T) {
	for i, c := range documentedShortest {
		r := Search(mustExpr(t, c.expr), MaxSearchLen, memoryTools...)
		require.Equal(t, i < 3, r.Found(), "%s without memory: %s", c.expr, ProgramString(r.Program))
		if r.Found() {
			require.Len(t, r.Program, c.length)
		}
	}
}

func TestSearchRemovingOneTool(t *testing.T) {
	// (a*b+c)-(d*e) needs M−V: once a*b+c is stored, v can never be made
	// 0 again to build −(d*e) for M+V.
	e := mustExpr(t, "(a*b+c)-(d*e)")
	require.True(t, Search(e, MaxSearchLen, MADD).Found())
	require.False(t, Search(e, MaxSearchLen, MSUB).Found())
	// Without MUL no product of two digits can be made.
	require.False(t, Search(mustExpr(t, "a*b"), MaxSearchLen, MUL).Found())
	require.True(t, Search(mustExpr(t, "a*b"), MaxSearchLen, LOAD).Found(), "ADD from v=0 loads")
}

func TestSearchUnreachable(t *testing.T) {
	// Operands are read in order and m only adds or subtracts: no product of
	// two sums, and no a*c+b, within MaxSearchLen tokens.
	for _, s := range []string{"(a+b)*(c+d)", "a*c+b"} {
		r := Search(mustExpr(t, s), MaxSearchLen)
		require.False(t, r.Found(), "%s: %s", s, ProgramString(r.Program))
		require.Positive(t, r.States)
	}
	// Skipping an operand is possible: LOAD overwrites v, and memory can
	// carry a value past one (a*c: v=a, m=a, v=m−v=0, v=0·b, v=m+v=a, v=a·c).
	r := Search(mustExpr(t, "b*c"), MaxSearchLen)
	require.Equal(t, []int32{LOAD, LOAD, MUL, ANS}, r.Program)
	r = Search(mustExpr(t, "a*c"), MaxSearchLen)
	require.Len(t, r.Program, 7, ProgramString(r.Program))
	// An expression that is 0 everywhere is answered at once.
	r = Search(mustExpr(t, "a-a"), MaxSearchLen)
	require.Equal(t, []int32{ANS}, r.Program)
}

func TestComputesRejectsWrongPrograms(t *testing.T) {
	e := mustExpr(t, "a*b+c")
	require.True(t, Computes(e, []int32{LOAD, MUL, ADD, ANS}))
	require.True(t, Computes(e, []int32{ADD, MUL, ADD, CTX, ANS, SUB}), "v starts at 0; tokens after ANS are ignored")
	require.False(t, Computes(e, []int32{LOAD, MUL, SUB, ANS}))
	require.False(t, Computes(e, []int32{LOAD, MUL, ADD}), "no ANS")
	// Large digit spaces are sampled: a*b+c*d-e*f+g*h has 10^8 tuples.
	big := mustExpr(t, "a*b+c*d-e*f+g*h")
	require.False(t, Computes(big, []int32{LOAD, MUL, STO, LOAD, MUL, MADD, STO, LOAD, MUL, MSUB, ANS}))
}

func BenchmarkSearch(b *testing.B) {
	for _, c := range documentedShortest {
		e := mustExpr(b, c.expr)
		b.Run(c.expr, func(b *testing.B) {
			for b.Loop() {
				Search(e, 12)
			}
		})
	}
}

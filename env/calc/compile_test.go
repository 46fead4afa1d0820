package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCompile(t *testing.T) {
	for s, want := range map[string][]int32{
		"a":               {LOAD, ANS},
		"a*b+c":           {LOAD, MUL, ADD, ANS},
		"a*b+c*d":         {LOAD, MUL, STO, LOAD, MUL, MADD, ANS},
		"a*b-(c*d+e)":     {LOAD, MUL, STO, LOAD, MUL, ADD, MSUB, ANS},
		"a*b+c*d-e*f+g*h": {LOAD, MUL, STO, LOAD, MUL, MADD, STO, LOAD, MUL, MSUB, STO, LOAD, MUL, MADD, ANS},
	} {
		e := mustExpr(t, s)
		require.Equal(t, want, compile(e), s)
		require.True(t, Computes(e, want), s)
	}
	// Needing two slots or m×v does not compile; operands out of order
	// compile to a program that Computes refuses.
	require.Nil(t, compile(mustExpr(t, "a*(b+c)")))
	require.Nil(t, compile(mustExpr(t, "a+(b+c*(d+e))")))
	require.False(t, Computes(mustExpr(t, "a*c+b"), compile(mustExpr(t, "a*c+b"))))
}

// A budget above MaxSearchLen reaches programs the search cannot.
func TestBudgetAboveMaxSearchLen(t *testing.T) {
	ls, err := ParseLevels("a*b+c*d-e*f+g*h:16")
	require.NoError(t, err)
	require.Equal(t, 16, ls[0].Budget)
	require.Len(t, ls[0].Shortest, 15, ProgramString(ls[0].Shortest))
	require.True(t, Computes(ls[0].Expr, ls[0].Shortest))

	ls, err = ParseLevels("a*b+c*d-e*f+g*h")
	require.NoError(t, err, "the default budget is the program's length plus the slack, at most MaxBudget")
	require.Equal(t, MaxBudget, ls[0].Budget)

	_, err = ParseLevels("a*b+c*d-e*f+g*h:14")
	require.Error(t, err)
}

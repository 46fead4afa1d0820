package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func eval(t *testing.T, s string, digits ...int32) int64 {
	t.Helper()
	e, err := ParseExpr(s)
	require.NoError(t, err, s)
	var d [MaxVars]int32
	copy(d[:], digits)
	return e.Eval(&d)
}

func TestExprPrecedenceAndAssociativity(t *testing.T) {
	require.Equal(t, int64(2+3*4), eval(t, "a+b*c", 2, 3, 4))
	require.Equal(t, int64((2+3)*4), eval(t, "(a+b)*c", 2, 3, 4))
	require.Equal(t, int64(9-3-4), eval(t, "a-b-c", 9, 3, 4))
	require.Equal(t, int64(9-(3-4)), eval(t, "a-(b-c)", 9, 3, 4))
	require.Equal(t, int64(2*3-4*5), eval(t, " a × b − c * d ", 2, 3, 4, 5))
	// docs/tasks.md's spelling: a·b (the parser once refused it).
	require.Equal(t, int64(2*3+4*5), eval(t, "a·b+c·d", 2, 3, 4, 5))
	require.Equal(t, int64(1*2+3*4-5*6+7*8), eval(t, "a*b+c*d-e*f+g*h", 1, 2, 3, 4, 5, 6, 7, 8))
	require.Equal(t, int64(7), eval(t, "((a))", 7))
}

func TestExprVarsAndCanonical(t *testing.T) {
	e, err := ParseExpr("a × c − b")
	require.NoError(t, err)
	require.Equal(t, 3, e.Vars(), "the highest letter decides")
	require.Equal(t, "a*c-b", e.String())
	e, err = ParseExpr("h")
	require.NoError(t, err)
	require.Equal(t, MaxVars, e.Vars())
}

func TestExprInner(t *testing.T) {
	e, err := ParseExpr("(a*b+c)-(d*e)")
	require.NoError(t, err)
	d := [MaxVars]int32{2, 3, 4, 5, 6}
	var inner [MaxInner]int64
	n := e.Inner(&d, &inner)
	require.Equal(t, []int64{6, 10, 30}, inner[:n])
	e, _ = ParseExpr("a*b")
	require.Zero(t, e.Inner(&d, &inner))
}

func TestExprErrors(t *testing.T) {
	cases := map[string]string{
		"":                                  "empty expression",
		"   ":                               "empty expression",
		"a*x":                               `unknown variable 'x' at position 3 (variables are a to h)`,
		"a*i":                               `unknown variable 'i' at position 3 (variables are a to h)`,
		"A+b":                               `unknown variable 'A' at position 1 (variables are a to h)`,
		"(a*b":                              `syntax error at position 5: missing ")"`,
		"a*b)":                              `syntax error at position 4: unmatched ")"`,
		"a**b":                              `syntax error at position 3: expected a variable or "(", found '*'`,
		"a+":                                `syntax error at position 3: expected a variable or "(", found the end`,
		"a b":                               `syntax error at position 3: expected an operator, found 'b'`,
		"2*a":                               `syntax error at position 1: constants are not supported (the machine has none); use variables a to h`,
		"-a":                                `syntax error at position 1: expected a variable or "(", found '-'`,
		"a/b":                               `syntax error at position 2: expected an operator, found '/'`,
		"()":                                `syntax error at position 2: expected a variable or "(", found ')'`,
		"a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+a+a": "syntax error at position 33: more than 16 variable occurrences",
	}
	for src, want := range cases {
		_, err := ParseExpr(src)
		require.EqualError(t, err, want, "%q", src)
	}
}

func TestExprValueBound(t *testing.T) {
	// The largest value MaxLeaves digits can make stays inside int64 (see MaxLeaves).
	s := "a"
	for i := 1; i < MaxLeaves; i++ {
		s += "*a"
	}
	require.Equal(t, int64(1853020188851841), eval(t, s, 9)) // 9^16
}

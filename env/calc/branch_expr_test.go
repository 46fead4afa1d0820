package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestAbsMaxMin(t *testing.T) {
	require.Equal(t, int64(3), eval(t, "abs(a-b)", 2, 5))
	require.Equal(t, int64(3), eval(t, "abs(a-b)", 5, 2))
	require.Equal(t, int64(5*4), eval(t, "max(a, b)*c", 2, 5, 4))
	require.Equal(t, int64(2+4), eval(t, "min(a,b)+c", 2, 5, 4))
	require.Equal(t, int64(12), eval(t, "max(a*b, c*d)", 2, 6, 3, 3))
	require.Equal(t, int64(3), eval(t, "abs(a*b-c*d)", 2, 6, 3, 5))
	require.Equal(t, int64(7), eval(t, "max(min(a,b), abs(c-d))", 7, 8, 1, 2))
	require.Equal(t, int64(-3), eval(t, "a-abs (b - c)", 1, 2, 6), "a space before ( is allowed")
	for _, s := range []string{"a*b", "a*b+c*d"} {
		require.False(t, mustExpr(t, s).Branches(), s)
	}
	for _, s := range []string{"abs(a)", "max(a,b)", "a+min(b,c)"} {
		require.True(t, mustExpr(t, s).Branches(), s)
	}
}

// Inner values are every operator node but the root, abs, max and min included.
func TestAbsMaxMinInner(t *testing.T) {
	e := mustExpr(t, "abs(a*b-c*d)")
	d := [MaxVars]int32{2, 3, 4, 5}
	var inner [MaxInner]int64
	n := e.Inner(&d, &inner)
	require.Equal(t, []int64{6, 20, -14}, inner[:n])
	e = mustExpr(t, "max(a,b)+c")
	n = e.Inner(&d, &inner)
	require.Equal(t, []int64{3}, inner[:n])
}

func TestAbsMaxMinCanonical(t *testing.T) {
	for spelled, canonical := range map[string]string{
		"max(b, a)":       "max(a,b)",
		"min(c*d, a*b)":   "min(a*b,c*d)",
		"c+max(b,a)":      "c+max(a,b)",
		"abs((a-b))*c":    "abs(a-b)*c",
		"c*abs(a-b)":      "abs(a-b)*c",
		"max(a*b,(c*d))":  "max(a*b,c*d)",
		"abs(b*a-d*c)":    "abs(a*b-c*d)",
		"max(min(b,a),c)": "max(c,min(a,b))",
	} {
		e := mustExpr(t, spelled)
		require.Equal(t, canonical, e.Canonical(), spelled)
		again := mustExpr(t, canonical)
		require.Equal(t, canonical, again.Canonical(), "idempotent: %s", spelled)
		require.Equal(t, e.functionKey(), again.functionKey(), spelled)
	}
}

// A branching expression is salted by its values: two that agree on every
// tuple split alike, two that differ do not share a key.
func TestBranchingSalt(t *testing.T) {
	x, y := mustExpr(t, "abs(a-b)"), mustExpr(t, "max(a-b,b-a)")
	require.NotEqual(t, x.Canonical(), y.Canonical())
	require.Equal(t, x.functionKey(), y.functionKey())
	require.Contains(t, x.functionKey(), "2:values:")
	require.NotEqual(t, x.functionKey(), mustExpr(t, "max(a,b)").functionKey())
	big := mustExpr(t, "max(a,e)")
	require.Equal(t, "5:canonical:max(a,e)", big.functionKey(), "beyond 4 digits: the canonical form")
}

func TestAbsMaxMinErrors(t *testing.T) {
	cases := map[string]string{
		"max(a)":     `syntax error at position 6: max takes two arguments, separated by ","`,
		"abs(a,b)":   `syntax error at position 6: abs takes 1 argument`,
		"min(a,b,c)": `syntax error at position 8: min takes 2 arguments`,
		"max(a,b":    `syntax error at position 8: missing ")"`,
		"abs":        `syntax error at position 2: expected an operator, found 'b'`,
		"max":        `unknown variable 'm' at position 1 (variables are a to h)`,
		"abs()":      `syntax error at position 5: expected a variable or "(", found ')'`,
	}
	for src, want := range cases {
		_, err := ParseExpr(src)
		require.EqualError(t, err, want, "%q", src)
	}
	// Operators are bounded too: abs nests but cannot outgrow MaxInner.
	s := "a"
	for i := 0; i < MaxOperators; i++ {
		s = "abs(" + s + ")"
	}
	e, err := ParseExpr(s)
	require.NoError(t, err)
	var inner [MaxInner]int64
	var d [MaxVars]int32
	require.Equal(t, int32(MaxInner), e.Inner(&d, &inner))
	_, err = ParseExpr("abs(" + s + ")")
	require.EqualError(t, err, "syntax error at position 81: more than 15 operators (+ - * abs max min)")
}

// Levels split at the commas outside parentheses.
func TestSplitLevels(t *testing.T) {
	require.Equal(t, []string{"max(a,b)+c", " abs(a-b):6", " a*b"}, splitLevels("max(a,b)+c, abs(a-b):6, a*b"))
	require.Equal(t, []string{"a)", "b"}, splitLevels("a),b"))
	require.Equal(t, []string{"(a*b", " c", " max(a, (b,c)"}, splitLevels("(a*b, c, max(a, (b,c)"))
	c, err := CanonicalSpec("max(b,a)+c, abs(a-b):6")
	require.NoError(t, err)
	require.Equal(t, "c+max(a,b), abs(a-b):6", c)
}

// A curriculum with calls spells itself as a spec that parses back to it.
func TestBranchingLevelsRoundTrip(t *testing.T) {
	ls, err := ParseLevels("c+max(b,a), abs(a-b):6")
	require.NoError(t, err)
	require.Equal(t, "c+max(b,a):8, abs(a-b):6", ls.String())
	again, err := ParseLevels(ls.String())
	require.NoError(t, err)
	require.Equal(t, ls.Canonical(), again.Canonical())
	require.Equal(t, "c+max(a,b):8, abs(a-b):6", ls.Canonical())
}

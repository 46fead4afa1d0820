package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCanonicalDropsParenthesesAndOrdersOperands(t *testing.T) {
	for spelled, canonical := range map[string]string{
		"a*b":             "a*b",
		"(a*b)":           "a*b",
		"((a*b))":         "a*b",
		"b*a":             "a*b",
		"(a*b)+(c*d)":     "a*b+c*d",
		"(a*b+c)-d":       "a*b+c-d",
		"(a*b+c)-(d*e)":   "a*b+c-d*e",
		"c+a*b":           "a*b+c",
		"c+(a+b)":         "a+b+c",
		"a+(b+c)":         "a+(b+c)",
		"a-(b-c)":         "a-(b-c)",
		"a-(b+c)":         "a-(b+c)",
		"(a+b)*c":         "(a+b)*c",
		"c*(b+a)":         "(a+b)*c",
		"a*(b*c)":         "a*(b*c)",
		"(c*d)*(a*b)":     "a*b*(c*d)",
		"a*b+c*d-e*f+g*h": "a*b+c*d-e*f+g*h",
	} {
		e := mustExpr(t, spelled)
		require.Equal(t, canonical, e.Canonical(), spelled)
		again := mustExpr(t, canonical)
		require.Equal(t, canonical, again.Canonical(), "idempotent: %s", spelled)
		require.Equal(t, e.functionKey(), again.functionKey(), "the same function: %s", spelled)
	}
	require.Equal(t, "(a*b)", mustExpr(t, "( a × b )").String(), "String keeps the spelling (a level's name), normalized")
}

// The canonical form keeps the tree's shape, so every spelling of a level has
// the same inner values (partial credit) on every tuple.
func TestCanonicalSpellingsHaveTheSameInnerValues(t *testing.T) {
	for _, pair := range [][2]string{{"c+a*b", "a*b+c"}, {"c*(b+a)", "(a+b)*c"}, {"(c+b*a)-(e*d)", "a*b+c-d*e"}} {
		x, y := mustExpr(t, pair[0]), mustExpr(t, pair[1])
		require.Equal(t, x.Canonical(), y.Canonical())
		for idx := uint64(0); idx < tupleSpace(x.vars); idx += 7 {
			var d [MaxVars]int32
			tupleDigits(idx, x.vars, &d)
			var ix, iy [MaxInner]int64
			nx, ny := x.Inner(&d, &ix), y.Inner(&d, &iy)
			require.ElementsMatch(t, ix[:nx], iy[:ny], "%v on %v", pair, d)
			require.Equal(t, x.Eval(&d), y.Eval(&d))
		}
	}
}

func TestDuplicateLevelsByCanonicalIdentity(t *testing.T) {
	for spec, want := range map[string]string{
		"a*b, (a*b)":           `level 1 "(a*b)": the same expression as level 0 (both are a*b)`,
		"a*b, ((a*b))":         `level 1 "((a*b))": the same expression as level 0 (both are a*b)`,
		"a*b+c*d, (a*b)+(c*d)": `level 1 "(a*b)+(c*d)": the same expression as level 0 (both are a*b+c*d)`,
		"a*b, b*a":             `level 1 "b*a": the same expression as level 0 (both are a*b)`,
		"a*b+c, c+a*b:9":       `level 1 "c+a*b:9": the same expression as level 0 (both are a*b+c)`,
		"(a*b+c)-d, a*b+c-d":   `level 1 "a*b+c-d": the same expression as level 0 (both are a*b+c-d)`,
	} {
		_, err := ParseLevels(spec)
		require.EqualError(t, err, want, spec)
	}
}

func TestCanonicalSpecAndLevelsCanonical(t *testing.T) {
	c, err := CanonicalSpec(" (a*b) , c + a×b :9, (a*b+c)−(d*e)")
	require.NoError(t, err)
	require.Equal(t, "a*b, a*b+c:9, a*b+c-d*e", c)
	_, err = CanonicalSpec("a*b, b*a")
	require.Error(t, err)
	ls, err := ParseLevels("(a*b), c+a*b:9")
	require.NoError(t, err)
	require.Equal(t, "a*b:5, a*b+c:9", ls.Canonical())
	require.Equal(t, "(a*b):5, c+a*b:9", ls.String(), "String keeps the spelling")
	def, err := CanonicalSpec(DefaultLevelsSpec)
	require.NoError(t, err)
	require.Equal(t, "a*b, a*b+c, a*b+c-d, a*b+c*d, a*b+c-d*e, a*b+c*d-e*f", def)
}

// Levels computing the same function hold out the same tuples, whatever
// their trees: a tuple one trains on is never held out by the other.
func TestSameFunctionSameSplit(t *testing.T) {
	for _, pair := range [][2]string{{"a*(b+c)", "a*b+a*c"}, {"a-(b-c)", "a-b+c"}, {"(a+b)*(a-b)", "a*a-b*b"}, {"a*b", "(b*a)"}} {
		x, y := mustExpr(t, pair[0]), mustExpr(t, pair[1])
		require.Equal(t, x.functionKey(), y.functionKey(), pair)
		require.Equal(t, x.functionSalt(), y.functionSalt(), pair)
	}
	require.NotEqual(t, mustExpr(t, "a*b").functionKey(), mustExpr(t, "a*b+c-c").functionKey(), "a level showing more digits is another function")
	require.NotEqual(t, mustExpr(t, "a+b").functionKey(), mustExpr(t, "a-b").functionKey())
	require.Equal(t, "2:0", mustExpr(t, "a-a+b-b").functionKey())

	ls, err := ParseLevels("a-b+c, a-(b-c)")
	require.NoError(t, err, "two trees are two levels")
	held := 0
	for idx := uint64(0); idx < 1000; idx++ {
		var d [MaxVars]int32
		tupleDigits(idx, 3, &d)
		require.Equal(t, ls[0].IsHeldOut(&d), ls[1].IsHeldOut(&d), "tuple %v", d)
		if ls[0].IsHeldOut(&d) {
			held++
		}
	}
	require.InDelta(t, 200, held, 40)
}

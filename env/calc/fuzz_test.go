package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseLevels: no spec panics, and none makes the searches exceed their
// documented caps (MaxSearchStates per search, MaxCurriculumStates per spec).
// A spec that parses gives levels whose programs compute them within their
// budgets, and its canonical spelling parses to itself.
func FuzzParseLevels(f *testing.F) {
	for _, s := range []string{DefaultLevelsSpec, "a*b, (a*b)", "a*b+c*d-e*f+g*h:16", "a:1", "b*c, a*c",
		"a-(b-c), a-b+c", "((a))", "a*b:0", "x", ",,", "a*b+c*d:5", "(((a*b)+c)-d):7", "c+a*b, d",
		ObserveLevelsSpec, "max(a,b)+c, abs(a-b):6", "min(a*b, c):3", "abs(abs(a)-b)", "max(a,(b,c))", "max(a,b", "abs(a*b-c*d):7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		ls, stats, err := parseLevels(spec, ParseOptions{})
		require.LessOrEqual(t, stats.maxStates, MaxSearchStates)
		require.LessOrEqual(t, stats.states, MaxCurriculumStates)
		if err != nil {
			require.NotEmpty(t, err.Error())
			return
		}
		require.NotEmpty(t, ls)
		require.LessOrEqual(t, len(ls), MaxLevels)
		for i := range ls {
			l := &ls[i]
			require.True(t, l.Budget >= 1 && l.Budget <= MaxBudget, l.String())
			require.LessOrEqual(t, l.ShortestLen(), l.Budget, l.String())
			if l.Branches() {
				require.NotNil(t, l.Tree, l.String())
				require.Empty(t, treeFailures(l.Expr, l.Tree, 10_000, 1), l.String())
			} else {
				require.True(t, computesOn(l.Expr, l.Shortest, 10_000), l.String())
			}
		}
		c, err := CanonicalSpec(spec)
		require.NoError(t, err)
		again, err := CanonicalSpec(c)
		require.NoError(t, err, c)
		require.Equal(t, c, again)
	})
}

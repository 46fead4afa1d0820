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

// FuzzRunBranching: any program on any observation level, on the branching
// machine, stays within the budget and the reward's range, and its
// observations are in 0..8; the level's tree, followed by them, is correct.
func FuzzRunBranching(f *testing.F) {
	f.Add(uint8(6), []byte{11, 14, 15, 11, 14, 17, 19, 18}, uint32(1234), 0.3)
	f.Add(uint8(4), []byte{11, 15, 11, 20, 12, 18}, uint32(395), 0.0)
	ls, err := ParseLevels(ObserveLevelsSpec)
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, level uint8, prog []byte, digits uint32, credit float64) {
		lv := int(level) % len(ls)
		var d [MaxVars]int32
		for i := range d {
			d[i] = int32(digits % 10)
			digits /= 10
		}
		in := ls.Instance(lv, d)
		if credit != credit || credit < 0 || credit > 1 {
			credit = 0.5
		}
		var e Episode
		e.ResetOps(&in, credit, BranchOps[:])
		for _, p := range prog {
			e.Step(int32(p%(BranchVocab+2)) - 1) // a few outside the vocabulary too
			require.True(t, e.Observation() >= 0 && e.Observation() < NumObservations)
		}
		o := e.Outcome()
		require.LessOrEqual(t, o.Steps, in.Budget)
		require.Equal(t, o.Correct, o.Answered && o.Answer == in.Target)
		require.GreaterOrEqual(t, o.Reward, 0.0)
		require.LessOrEqual(t, o.Reward, 1+credit)
		tree := ls[lv].Tree.Program(&in.Digits, in.Vars)
		require.True(t, RunOps(in, tree, credit, BranchOps[:]).Correct, "%v: %s", in.Digits, ProgramString(tree))
	})
}

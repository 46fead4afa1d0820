package calc

import (
	"fmt"
	"testing"
	"time"

	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// The observation curriculum's levels with the worst-case lengths of their
// decision trees (the package doc's table).
var documentedTrees = []struct {
	expr   string
	depth  int
	budget int
}{
	{"abs(a-b)", 4, 6},
	{"max(a,b)", 5, 7},
	{"abs(a-b)*c", 5, 7},
	{"min(a,b)*c", 6, 8},
	{"max(a,b)+c", 6, 8},
	{"max(a*b,c*d)", 7, 9},
	{"abs(a*b-c*d)", 8, 10},
}

func observeLevels(t testing.TB) Levels {
	t.Helper()
	ls, err := ParseLevels(ObserveLevelsSpec)
	require.NoError(t, err)
	return ls
}

// Every level of the observation curriculum has a decision tree of the
// documented worst-case length, right on every tuple, and none shorter.
func TestSearchTreeObserveLevels(t *testing.T) {
	ls := observeLevels(t)
	require.Len(t, ls, len(documentedTrees))
	for i, c := range documentedTrees {
		l := &ls[i]
		require.Equal(t, c.expr, l.Expr.String())
		require.True(t, l.Branches())
		require.NotNil(t, l.Tree, c.expr)
		require.Nil(t, l.Shortest)
		require.Equal(t, c.depth, l.Tree.Depth(), "%s:\n%s", c.expr, l.Tree)
		require.Equal(t, c.depth, l.ShortestLen())
		require.Equal(t, c.budget, l.Budget)
		require.True(t, TreeComputes(l.Expr, l.Tree), c.expr)
		r := SearchTree(l.Expr, c.depth-1)
		require.False(t, r.Found(), "%s: nothing shorter", c.expr)
		require.False(t, r.Capped)
		t.Logf("%s: depth %d, %d nodes\n%s", c.expr, c.depth, len(l.Tree.Nodes), l.Tree)
	}
	require.True(t, ls.Branches())
	require.False(t, DefaultLevels().Branches())
}

// The tree's path on an instance, run as a program on the branching
// machine, scores 1 on every draw, and every step's observation picks the
// next node.
func TestTreeProgramsSolveEveryDraw(t *testing.T) {
	ls := observeLevels(t)
	for lv := range ls {
		for ep := uint32(0); ep < 200; ep++ {
			in := ls.Draw(rng.NewKey(5), 0, ep, rng.PurposeTask, lv, ep%2 == 0)
			prog := ls[lv].Tree.Program(&in.Digits, in.Vars)
			require.LessOrEqual(t, len(prog), ls[lv].Tree.Depth())
			o := RunOps(in, prog, 0, BranchOps[:])
			require.True(t, o.Correct, "level %d %v: %s", lv, in.Digits, ProgramString(prog))
			// The same path, choosing by the episode's observations.
			var e Episode
			e.ResetOps(&in, 0, BranchOps[:])
			node := int32(0)
			for !e.Done() {
				e.Step(ls[lv].Tree.Nodes[node].Token)
				if !e.Done() {
					node = ls[lv].Tree.Nodes[node].Next[e.Observation()]
					require.GreaterOrEqual(t, node, int32(0))
				}
			}
			require.True(t, e.Outcome().Correct)
		}
	}
}

// No fixed program within a level's budget computes a branching level, even
// on the branching machine: observations are necessary.
func TestObserveLevelsNeedObservations(t *testing.T) {
	ls := observeLevels(t)
	for i := range ls {
		r := FixedProgram(ls[i].Expr, ls[i].Budget)
		require.False(t, r.Found(), "%s: %s", ls[i].Expr, ProgramString(r.Program))
		require.False(t, r.Capped, ls[i].Expr.String())
	}
	// FixedProgram can succeed: abs of a product of digits is the product.
	r := FixedProgram(mustExpr(t, "abs(a*b)"), 5)
	require.True(t, r.Found())
	require.Equal(t, "[LOAD] [MUL] [ANS]", ProgramString(r.Program))
}

// A tree search is bounded: a level no tree within the budget solves is
// refused, and the caps and the interrupt stop it.
func TestSearchTreeBounds(t *testing.T) {
	_, err := ParseLevels("abs(a*b-c*d):7")
	require.EqualError(t, err, `level 0 "abs(a*b-c*d):7": no decision tree of at most 7 tokens on a path computes it (the branching machine, observing the signs of v and v-m after each token)`)
	r, err := newTreeSearcher(mustExpr(t, "abs(a*b-c*d)"), searchLimits{states: 100}).run(10)
	require.NoError(t, err)
	require.True(t, r.Capped)
	require.False(t, r.Found())
	require.LessOrEqual(t, r.States, 100)
	stop := make(chan struct{})
	close(stop)
	_, err = ParseLevelsWith("max(a*c,b*d)", ParseOptions{Interrupt: stop}) // not searched before
	require.ErrorIs(t, err, ErrInterrupted)
	_, stats, err := parseLevels("max(a*b,c*d+e*f-g*h), abs(a*b*c*d-e*f*g*h)", ParseOptions{})
	require.ErrorContains(t, err, `level 0 "max(a*b,c*d+e*f-g*h)": the search for a decision tree visited 300000 states, the most one search may`)
	require.ErrorContains(t, err, `level 1 "abs(a*b*c*d-e*f*g*h)": the search for a decision tree visited 300000 states`)
	require.Equal(t, 2*MaxSearchStates, stats.states)
	require.Equal(t, MaxSearchStates, stats.maxStates)
}

// A tree prints one path a line, branching by observation.
func TestTreeString(t *testing.T) {
	l, err := ParseLevel("abs(a-b)")
	require.NoError(t, err)
	s := l.Tree.String()
	// a=0 answers b at once; else a−b, negated (m−v with m=0) when negative.
	require.Equal(t, "[LOAD]\n  v=0 v=m: [LOAD]\n    v=0 v=m: [ANS]\n    v>0 v>m: [ANS]\n  v>0 v>m: [SUB]\n    v<0 v<m: [M-V] [ANS]\n    v=0 v=m: [ANS]\n    v>0 v>m: [ANS]", s)
	require.Equal(t, "(none)", (*Tree)(nil).String())
	require.Zero(t, (*Tree)(nil).Depth())
}

// The tree search reports progress at its checks (every one, with
// progressEvery 0) and stops at its first check when interrupted.
func TestSearchTreeProgressAndInterrupt(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 0
	calls := 0
	limits := searchLimits{states: 3 * checkEvery, progress: func(states int, elapsed time.Duration) { calls++ }}
	r, err := newTreeSearcher(mustExpr(t, "abs(a*b*c-d*e*f)"), limits).run(12)
	require.NoError(t, err)
	require.True(t, r.Capped)
	require.Equal(t, 3, calls, "one report per check, the first expansion's included")
	stop := make(chan struct{})
	close(stop)
	r, err = newTreeSearcher(mustExpr(t, "abs(a*b*c-d*e*f)"), searchLimits{states: MaxSearchStates, interrupt: stop}).run(12)
	require.ErrorIs(t, err, ErrInterrupted)
	require.Equal(t, 1, r.States)
}

// An explicit budget is the tree search's depth, above MaxSearchLen too (no
// compiler stands behind a tree, as one does behind a straight-line
// program), and the search stays within MaxSearchStates at any depth.
func TestExplicitBudgetIsTheTreeSearchDepth(t *testing.T) {
	// a·a has no tree (each operand is read once): the search is exhaustive
	// to the budget, and deeper than MaxSearchLen visits more states.
	_, deep, err := parseLevels("abs(a*a):16", ParseOptions{})
	require.EqualError(t, err, `level 0 "abs(a*a):16": no decision tree of at most 16 tokens on a path computes it (the branching machine, observing the signs of v and v-m after each token)`)
	_, short, err := parseLevels(fmt.Sprintf("abs(a*a):%d", MaxSearchLen), ParseOptions{})
	require.Error(t, err)
	require.Greater(t, deep.states, short.states)

	// The level: bounded by the state cap, and the line names the budget.
	_, stats, err := parseLevels("abs(a-h):16", ParseOptions{})
	require.EqualError(t, err, fmt.Sprintf(`level 0 "abs(a-h):16": the search for a decision tree visited %d states, the most one search may, without finding one of at most 16 tokens; give a smaller expression or a smaller explicit :budget`, MaxSearchStates))
	require.Equal(t, MaxSearchStates, stats.maxStates)

	// A short tree under a long budget: the same tree, the budget as given.
	l, err := ParseLevel("abs(a-b):16")
	require.NoError(t, err)
	require.Equal(t, 4, l.Tree.Depth())
	require.Equal(t, 16, l.Budget)
}

package calc

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Budget limits. A level's budget is the number of tokens the policy writes
// in an episode (ANS counts as one); by default it is the shortest program's
// length plus BudgetSlack. A level's shortest program must fit in
// MaxSearchLen, the longest program the parse-time search looks for.
const (
	MaxBudget   = 16
	BudgetSlack = 2
)

// DefaultLevelsSpec is the default curriculum, easiest first. From level 3
// (a*b+c*d) on, no program without the memory tools computes the level.
const DefaultLevelsSpec = "a*b, a*b+c, (a*b+c)-d, a*b+c*d, (a*b+c)-(d*e), a*b+c*d-e*f"

// ObserveLevelsSpec is the default observation curriculum, easiest first:
// levels whose value picks a branch by a sign, so that no fixed program
// within the budget computes them (an open-loop policy answers at most
// about 60 % of the tuples, see OpenLoop) but a policy that observes the
// signs of v and v−m after each token does (SearchTree). The last three
// combine a branch with the memory: max(a,b)+c and max(a*b,c*d) keep one
// operand in m and SWAP the larger into v, abs(a*b-c*d) computes the
// difference through m and NEGates it when negative.
const ObserveLevelsSpec = "abs(a-b), max(a,b), abs(a-b)*c, min(a,b)*c, max(a,b)+c, max(a*b,c*d), abs(a*b-c*d)"

// Level is one step of the curriculum: an expression, the context digits it
// shows (Vars: a up to its highest variable letter) and a step budget.
type Level struct {
	Expr     *Expr
	Budget   int     // tokens written per episode, ANS included
	Shortest []int32 // the shortest program found computing Expr, ANS included (see ParseLevel); nil for a branching level
	// Tree is a branching level's closed-loop program (SearchTree): a
	// decision tree over observations of least worst-case length; nil for
	// the others. Shared and read-only.
	Tree *Tree
	salt uint64 // hash of the function Expr computes: decides the held-out split
}

// Vars is the number of context digits the level shows.
func (l *Level) Vars() int { return l.Expr.Vars() }

// Branches reports whether the level's expression uses abs, max or min: it
// needs the branching machine (BranchOps) and is solved by Tree.
func (l *Level) Branches() bool { return l.Expr.Branches() }

// ShortestLen is the length of the level's shortest solution, ANS included:
// Shortest's, or a branching level's Tree's worst-case length (a rollout of
// fewer steps cannot solve every instance).
func (l *Level) ShortestLen() int {
	if l.Tree != nil {
		return l.Tree.Depth()
	}
	return len(l.Shortest)
}

// String spells the level as ParseLevels reads it: "expr:budget".
func (l *Level) String() string { return l.Expr.String() + ":" + strconv.Itoa(l.Budget) }

// Levels is a curriculum, in order.
type Levels []Level

// Branches reports whether some level branches: then the task runs every
// level on the branching machine (BranchOps, BranchVocab tokens).
func (ls Levels) Branches() bool {
	for i := range ls {
		if ls[i].Branches() {
			return true
		}
	}
	return false
}

// String spells the curriculum as ParseLevels reads it.
func (ls Levels) String() string {
	parts := make([]string, len(ls))
	for i := range ls {
		parts[i] = ls[i].String()
	}
	return strings.Join(parts, ", ")
}

var defaultLevels = sync.OnceValue(func() Levels {
	ls, err := ParseLevels(DefaultLevelsSpec)
	if err != nil {
		panic("calc: the default levels do not parse: " + err.Error())
	}
	return ls
})

// DefaultLevels returns the default curriculum, parsed and searched once per
// process (the levels share their Expr and Shortest, which are read-only).
func DefaultLevels() Levels { return slices.Clone(defaultLevels()) }

// ParseLevels reads a comma-separated list of levels, each an expression with
// an optional budget, "expr" or "expr:budget" (e.g. "a*b, a*b+c*d:9"); it is
// ParseLevelsWith with no interrupt and no progress.
func ParseLevels(spec string) (Levels, error) { return ParseLevelsWith(spec, ParseOptions{}) }

// ParseLevel reads and validates one level, "expr" or "expr:budget": a
// program within the budget must compute it, and its digit tuples must split
// into a non-empty training and held-out part. Without a budget, the budget
// is the program's length plus BudgetSlack (at most MaxBudget).
//
// The program, Level.Shortest, is the shortest the search finds within
// min(budget, MaxSearchLen) tokens (a shortest one: the search is
// exhaustive). When the search finds none (nothing within MaxSearchLen, or it
// reached its cap) and the budget allows more, it is the program the
// expression compiles to (see compile), verified with Computes: the shortest
// found, not necessarily the shortest.
//
// A branching level (abs, max, min) has no program but a decision tree,
// Level.Tree: the one SearchTree finds within the budget (MaxSearchLen
// without one) tokens on its longest path, of least worst-case length;
// without a budget, the budget is that length plus BudgetSlack.
func ParseLevel(text string) (Level, error) {
	if len(splitLevels(text)) > 1 {
		return Level{}, errors.New("one level has no comma outside parentheses (ParseLevels reads lists)")
	}
	ls, err := ParseLevels(text)
	if err != nil {
		return Level{}, err
	}
	return ls[0], nil
}

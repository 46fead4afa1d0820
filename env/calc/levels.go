package calc

import (
	"errors"
	"fmt"
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

// Level is one step of the curriculum: an expression, the context digits it
// shows (Vars: a up to its highest variable letter) and a step budget.
type Level struct {
	Expr     *Expr
	Budget   int     // tokens written per episode, ANS included
	Shortest []int32 // a shortest program computing Expr, ANS included (found by Search)
	salt     uint64  // hash of the canonical expression: decides the held-out split
}

// Vars is the number of context digits the level shows.
func (l *Level) Vars() int { return l.Expr.Vars() }

// String spells the level as ParseLevels reads it: "expr:budget".
func (l *Level) String() string { return l.Expr.String() + ":" + strconv.Itoa(l.Budget) }

// Levels is a curriculum, in order.
type Levels []Level

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
// an optional budget, "expr" or "expr:budget" (e.g. "a*b, a*b+c*d:9"). Every
// level is validated (see ParseLevel); the error has one line per problem.
func ParseLevels(spec string) (Levels, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, errors.New("no levels")
	}
	var ls Levels
	var errs []error
	seen := map[string]int{}
	for i, item := range strings.Split(spec, ",") {
		lv, err := ParseLevel(item)
		if err != nil {
			if t := strings.TrimSpace(item); t == "" {
				errs = append(errs, fmt.Errorf("level %d: %w", i+1, err))
			} else {
				errs = append(errs, fmt.Errorf("level %d %q: %w", i+1, t, err))
			}
			continue
		}
		if j, dup := seen[lv.Expr.String()]; dup {
			errs = append(errs, fmt.Errorf("level %d %q: the same expression as level %d", i+1, strings.TrimSpace(item), j))
			continue
		}
		seen[lv.Expr.String()] = i + 1
		ls = append(ls, lv)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return ls, nil
}

// ParseLevel reads one level, "expr" or "expr:budget", and validates it: a
// program of at most min(budget, MaxSearchLen) tokens must compute it (the
// default budget is the shortest length plus BudgetSlack), and its digit
// tuples must split into a non-empty training and held-out part.
func ParseLevel(text string) (Level, error) {
	text = strings.TrimSpace(text)
	budget := 0
	if i := strings.LastIndexByte(text, ':'); i >= 0 {
		b, err := strconv.Atoi(strings.TrimSpace(text[i+1:]))
		if err != nil || b < 1 || b > MaxBudget {
			return Level{}, fmt.Errorf("budget %q after \":\" is not a whole number from 1 to %d", strings.TrimSpace(text[i+1:]), MaxBudget)
		}
		budget, text = b, strings.TrimSpace(text[:i])
	}
	e, err := ParseExpr(text)
	if err != nil {
		return Level{}, err
	}
	maxLen := MaxSearchLen
	if budget != 0 {
		maxLen = min(budget, MaxSearchLen)
	}
	res := Search(e, maxLen)
	if !res.Found() {
		hint := ""
		if maxLen < MaxSearchLen {
			if longer := Search(e, MaxSearchLen); longer.Found() {
				hint = fmt.Sprintf("; the shortest has %d", len(longer.Program))
			}
		}
		return Level{}, fmt.Errorf("no program of at most %d tokens computes it (operands are read in order a, b, c, …, each by one tool; one memory slot)%s", maxLen, hint)
	}
	if budget == 0 {
		budget = len(res.Program) + BudgetSlack
	}
	lv := Level{Expr: e, Budget: budget, Shortest: res.Program, salt: exprSalt(e.String())}
	if err := lv.checkSplit(); err != nil {
		return Level{}, err
	}
	return lv, nil
}

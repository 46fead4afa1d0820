package calc

import (
	"strconv"
	"strings"
)

// A level's identity is its canonical expression, not its spelling: the
// expression tree with every parenthesis that the precedence makes redundant
// dropped, and the two operands of every + and × put in a fixed order (the
// smaller canonical spelling first). So a*b, (a*b), ((a*b)) and b*a are one
// level, (a*b)+(c*d) is a*b+c*d, (a*b+c)-d is a*b+c-d, and c+a*b is a*b+c.
//
// Only operands of one node are swapped, never regrouped: the tree keeps its
// shape, so its inner subexpressions (the values that earn partial credit,
// see Run) are the same multiset in every spelling of one canonical form,
// and the canonical form has the same value on every tuple. a+(b+c) and
// a+b+c stay two levels (their inner values are b+c and a+b); so do
// a*(b+c) and a*b+a*c. Such levels compute the same function, and their
// held-out tuples are the same (see functionSalt).

// Canonical is the expression's canonical spelling: minimal parentheses, and
// the operands of + and × in canonical order (see above). Two expressions are
// one level exactly when their Canonical spellings are equal.
func (e *Expr) Canonical() string {
	s, _ := e.canonicalNode(e.n - 1)
	return s
}

// canonicalNode spells node i canonically and returns its kind (for the
// parent's parentheses).
func (e *Expr) canonicalNode(i int8) (string, nodeKind) {
	nd := &e.nodes[i]
	if nd.kind == nodeVar {
		return string(rune('a' + nd.v)), nodeVar
	}
	l, lk := e.canonicalNode(nd.l)
	if nd.kind == nodeAbs {
		return "abs(" + l + ")", nodeAbs
	}
	r, rk := e.canonicalNode(nd.r)
	if nd.kind == nodeMax || nd.kind == nodeMin {
		// Operands sorted as those of + and ×: max(b,a) is max(a,b).
		if r < l {
			l, r = r, l
		}
		return map[nodeKind]string{nodeMax: "max(", nodeMin: "min("}[nd.kind] + l + "," + r + ")", nd.kind
	}
	if nd.kind == nodeAdd || nd.kind == nodeMul {
		if r < l || r == l && rk < lk {
			l, r, lk, rk = r, l, rk, lk
		}
	}
	op := map[nodeKind]string{nodeAdd: "+", nodeSub: "-", nodeMul: "*"}[nd.kind]
	return parenthesize(l, lk, nd.kind, false) + op + parenthesize(r, rk, nd.kind, true), nd.kind
}

// parenthesize wraps an operand of a parent operator in parentheses exactly
// when the parser would otherwise group it differently: × binds tighter than
// + and −, which associate to the left (a function call is atomic).
func parenthesize(s string, kind, parent nodeKind, right bool) string {
	sum := kind == nodeAdd || kind == nodeSub
	need := parent == nodeMul && (sum || right && kind == nodeMul) || right && sum
	if need {
		return "(" + s + ")"
	}
	return s
}

// Canonical spells the curriculum with canonical expressions and budgets,
// "expr:budget, …"; two curricula are the same exactly when these are equal.
func (ls Levels) Canonical() string {
	parts := make([]string, len(ls))
	for i := range ls {
		parts[i] = ls[i].Expr.Canonical() + ":" + strconv.Itoa(ls[i].Budget)
	}
	return strings.Join(parts, ", ")
}

// CanonicalSpec parses a levels spec without searching anything (cheap, and
// bounded by MaxSpecBytes and MaxLevels) and spells it canonically: each
// level's canonical expression, with ":budget" where the spec gives one. Two
// specs with equal CanonicalSpec parse to the same curriculum. A level
// without a budget gets its default from the search, so "a*b" and "a*b:5"
// differ here although they parse alike; compare Levels.Canonical for that.
func CanonicalSpec(spec string) (string, error) {
	items, err := parseItems(spec)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(items))
	for i, it := range items {
		parts[i] = it.expr.Canonical()
		if it.budget != 0 {
			parts[i] += ":" + strconv.Itoa(it.budget)
		}
	}
	return strings.Join(parts, ", "), nil
}

package calc

import (
	"fmt"
	"strings"
)

// Expression limits. Variables are the letters a.. (a is the first context
// digit); the leaf limit keeps every value inside int64: with L leaves of at
// most 9, |value| ≤ 9^L, and 9^16 ≈ 1.9e15 (abs, max and min never grow a
// magnitude). The operator limit counts abs, max and min too, so that the
// inner values (every operator but the root) fit MaxInner whatever the mix.
const (
	MaxLeaves    = 16            // variable occurrences in one expression
	MaxOperators = MaxLeaves - 1 // + − × abs max min in one expression
	MaxNodes     = MaxLeaves + MaxOperators
	MaxInner     = MaxOperators - 1  // non-leaf subexpressions other than the whole
	lastVar      = 'a' + MaxVars - 1 // 'h'
)

type nodeKind int8

const (
	nodeVar nodeKind = iota
	nodeAdd
	nodeSub
	nodeMul
	nodeAbs // |l|
	nodeMax // max(l, r)
	nodeMin // min(l, r)
)

// branches reports whether the node's kind picks a branch by a sign.
func (k nodeKind) branches() bool { return k >= nodeAbs }

// node is one subexpression; children come before parents in Expr.nodes, so
// one pass in order evaluates the whole tree.
type node struct {
	kind nodeKind
	v    int8 // variable index, for nodeVar
	l, r int8 // children, for operators
}

// Expr is a parsed arithmetic expression over the context digits, stored as a
// post-ordered node array (no pointers, no maps) so that evaluating it
// allocates nothing.
type Expr struct {
	text  string // the spelling, normalized: no spaces, ASCII operators
	nodes [MaxNodes]node
	n     int8
	vars  int32 // highest variable used + 1: the digits a level shows
}

// String is the expression as spelled, normalized (no spaces, ASCII * and
// -): what users wrote, and the level's name. Its identity is Canonical.
func (e *Expr) String() string { return e.text }

// Branches reports whether the expression uses abs, max or min: its value
// picks a branch by a sign, so no fixed program computes it in general and a
// level of it is solved by a decision tree over observations (SearchTree).
func (e *Expr) Branches() bool {
	for i := int8(0); i < e.n; i++ {
		if e.nodes[i].kind.branches() {
			return true
		}
	}
	return false
}

// Vars is the number of context digits the expression needs: the highest
// variable letter used, counted from a (a*c needs a, b and c).
func (e *Expr) Vars() int { return int(e.vars) }

// Eval computes the expression on the digits (a = digits[0]).
func (e *Expr) Eval(digits *[MaxVars]int32) int64 {
	var vals [MaxNodes]int64
	e.evalNodes(digits, &vals)
	return vals[e.n-1]
}

// Inner writes the values of the expression's inner subexpressions (every
// operator node but the root, in post-order) into dst and returns how many.
func (e *Expr) Inner(digits *[MaxVars]int32, dst *[MaxInner]int64) int32 {
	var vals [MaxNodes]int64
	e.evalNodes(digits, &vals)
	k := int32(0)
	for i := int8(0); i < e.n-1; i++ {
		if e.nodes[i].kind != nodeVar {
			dst[k] = vals[i]
			k++
		}
	}
	return k
}

func (e *Expr) evalNodes(digits *[MaxVars]int32, vals *[MaxNodes]int64) {
	for i := int8(0); i < e.n; i++ {
		nd := &e.nodes[i]
		switch nd.kind {
		case nodeVar:
			vals[i] = int64(digits[nd.v])
		case nodeAdd:
			vals[i] = vals[nd.l] + vals[nd.r]
		case nodeSub:
			vals[i] = vals[nd.l] - vals[nd.r]
		case nodeMul:
			vals[i] = vals[nd.l] * vals[nd.r]
		case nodeAbs:
			vals[i] = max(vals[nd.l], -vals[nd.l])
		case nodeMax:
			vals[i] = max(vals[nd.l], vals[nd.r])
		case nodeMin:
			vals[i] = min(vals[nd.l], vals[nd.r])
		}
	}
}

// ParseExpr parses an expression over the variables a–h with + − ×,
// parentheses and the functions abs(x), max(x, y) and min(x, y); × binds
// tighter than + and −, which associate to the left.
// Accepted spellings: *, × and · for multiplication (docs/tasks.md writes a·b), - and − for subtraction.
// Positions in errors count characters from 1.
func ParseExpr(s string) (*Expr, error) {
	p := parser{src: []rune(s), e: &Expr{}}
	p.skipSpace()
	if p.pos == len(p.src) {
		return nil, fmt.Errorf("empty expression")
	}
	if _, err := p.sum(); err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos < len(p.src) {
		if p.src[p.pos] == ')' {
			return nil, p.errorf("unmatched \")\"")
		}
		return nil, p.errorf("expected an operator, found %q", p.src[p.pos])
	}
	p.e.text = normalizeSpelling(s)
	return p.e, nil
}

func normalizeSpelling(s string) string {
	r := strings.NewReplacer(" ", "", "\t", "", "×", "*", "·", "*", "−", "-")
	return r.Replace(s)
}

type parser struct {
	src     []rune
	pos     int
	leaves  int
	ops     int // operators, abs max min included
	nesting int
	e       *Expr
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("syntax error at position %d: %s", p.pos+1, fmt.Sprintf(format, args...))
}

func (p *parser) skipSpace() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// peekOp returns the operator at the cursor (after spaces) as '+', '-', '*', or 0.
func (p *parser) peekOp() rune {
	p.skipSpace()
	if p.pos == len(p.src) {
		return 0
	}
	switch p.src[p.pos] {
	case '+':
		return '+'
	case '-', '−':
		return '-'
	case '*', '×', '·':
		return '*'
	}
	return 0
}

func (p *parser) add(nd node) int8 {
	if nd.kind != nodeVar {
		p.ops++ // the caller checked it with p.operator
	}
	p.e.nodes[p.e.n] = nd
	p.e.n++
	return p.e.n - 1
}

// sum := product (('+' | '-') product)*
func (p *parser) sum() (int8, error) {
	l, err := p.product()
	if err != nil {
		return 0, err
	}
	for {
		op := p.peekOp()
		if op != '+' && op != '-' {
			return l, nil
		}
		p.pos++
		r, err := p.product()
		if err != nil {
			return 0, err
		}
		if err := p.operator(); err != nil {
			return 0, err
		}
		kind := nodeAdd
		if op == '-' {
			kind = nodeSub
		}
		l = p.add(node{kind: kind, l: l, r: r})
	}
}

// product := factor ('*' factor)*
func (p *parser) product() (int8, error) {
	l, err := p.factor()
	if err != nil {
		return 0, err
	}
	for p.peekOp() == '*' {
		p.pos++
		r, err := p.factor()
		if err != nil {
			return 0, err
		}
		if err := p.operator(); err != nil {
			return 0, err
		}
		l = p.add(node{kind: nodeMul, l: l, r: r})
	}
	return l, nil
}

// operator refuses one operator more than MaxOperators; binary operators are
// counted after their right operand, so that too many leaves are reported as
// such (only abs, max and min can make more operators than leaves allow).
func (p *parser) operator() error {
	if p.ops == MaxOperators {
		return p.errorf("more than %d operators (+ - * abs max min)", MaxOperators)
	}
	return nil
}

// functions are the names the parser reads as functions, with their arity.
var functions = []struct {
	name  string
	kind  nodeKind
	arity int
}{{"abs", nodeAbs, 1}, {"max", nodeMax, 2}, {"min", nodeMin, 2}}

// function returns the function whose name (then spaces and "(") is at the cursor.
func (p *parser) function() (kind nodeKind, arity, length int, ok bool) {
	for _, f := range functions {
		n := len(f.name)
		if p.pos+n > len(p.src) || string(p.src[p.pos:p.pos+n]) != f.name {
			continue
		}
		j := p.pos + n
		for j < len(p.src) && (p.src[j] == ' ' || p.src[j] == '\t') {
			j++
		}
		if j < len(p.src) && p.src[j] == '(' {
			return f.kind, f.arity, n, true
		}
	}
	return 0, 0, 0, false
}

// nested parses a sum inside parentheses (the caller checked the depth with
// deeper), counting the nesting.
func (p *parser) nested() (int8, error) {
	p.nesting++
	i, err := p.sum()
	p.nesting--
	return i, err
}

// deeper refuses parentheses nested more than maxNesting deep (the cursor on
// the function or the "(").
func (p *parser) deeper() error {
	if p.nesting == maxNesting {
		return p.errorf("parentheses nested more than %d deep", maxNesting)
	}
	return nil
}

// factor := variable | '(' sum ')' | abs '(' sum ')' | (max|min) '(' sum ',' sum ')'
func (p *parser) factor() (int8, error) {
	p.skipSpace()
	if p.pos == len(p.src) {
		return 0, p.errorf("expected a variable or \"(\", found the end")
	}
	c := p.src[p.pos]
	if kind, arity, n, ok := p.function(); ok {
		if err := p.deeper(); err != nil {
			return 0, err
		}
		name := string(p.src[p.pos : p.pos+n])
		p.pos += n
		p.skipSpace()
		p.pos++ // "("
		l, err := p.nested()
		if err != nil {
			return 0, err
		}
		r := int8(0)
		p.skipSpace()
		if arity == 2 {
			if p.pos == len(p.src) || p.src[p.pos] != ',' {
				return 0, p.errorf("%s takes two arguments, separated by \",\"", name)
			}
			p.pos++
			if r, err = p.nested(); err != nil {
				return 0, err
			}
			p.skipSpace()
		}
		if p.pos < len(p.src) && p.src[p.pos] == ',' {
			return 0, p.errorf("%s takes %d %s", name, arity, plural(arity, "argument", "arguments"))
		}
		if p.pos == len(p.src) || p.src[p.pos] != ')' {
			return 0, p.errorf("missing \")\"")
		}
		if err := p.operator(); err != nil {
			return 0, err
		}
		p.pos++
		return p.add(node{kind: kind, l: l, r: r}), nil
	}
	switch {
	case c == '(':
		if err := p.deeper(); err != nil {
			return 0, err
		}
		p.pos++
		i, err := p.nested()
		if err != nil {
			return 0, err
		}
		p.skipSpace()
		if p.pos == len(p.src) || p.src[p.pos] != ')' {
			return 0, p.errorf("missing \")\"")
		}
		p.pos++
		return i, nil
	case c >= 'a' && c <= lastVar:
		if p.leaves == MaxLeaves {
			return 0, p.errorf("more than %d variable occurrences", MaxLeaves)
		}
		p.leaves++
		p.pos++
		v := int8(c - 'a')
		if int32(v)+1 > p.e.vars {
			p.e.vars = int32(v) + 1
		}
		return p.add(node{kind: nodeVar, v: v}), nil
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return 0, fmt.Errorf("unknown variable %q at position %d (variables are a to %c)", c, p.pos+1, lastVar)
	case c >= '0' && c <= '9':
		return 0, p.errorf("constants are not supported (the machine has none); use variables a to %c", lastVar)
	}
	return 0, p.errorf("expected a variable or \"(\", found %q", c)
}

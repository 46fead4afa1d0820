package expr

import "fmt"

// ParseTree reads a spelling as String writes it (leaves a, b, c, … in
// order, + − × as + - *, parentheses; × binds tighter, all associate to the
// left), the inverse of String on the family's trees.
func ParseTree(s string) (*Tree, error) {
	p := treeParser{s: s}
	t, err := p.sum()
	if err != nil {
		return nil, err
	}
	if p.i != len(s) {
		return nil, fmt.Errorf("%q: unexpected %q at %d", s, s[p.i], p.i+1)
	}
	return t, nil
}

type treeParser struct {
	s      string
	i      int
	leaves int
}

func (p *treeParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *treeParser) sum() (*Tree, error) {
	l, err := p.product()
	for err == nil && (p.peek() == '+' || p.peek() == '-') {
		op := p.s[p.i]
		p.i++
		var r *Tree
		if r, err = p.product(); err == nil {
			l = &Tree{Op: op, L: l, R: r}
		}
	}
	return l, err
}

func (p *treeParser) product() (*Tree, error) {
	l, err := p.factor()
	for err == nil && p.peek() == '*' {
		p.i++
		var r *Tree
		if r, err = p.factor(); err == nil {
			l = &Tree{Op: '*', L: l, R: r}
		}
	}
	return l, err
}

func (p *treeParser) factor() (*Tree, error) {
	switch c := p.peek(); {
	case c == '(':
		p.i++
		t, err := p.sum()
		if err != nil {
			return nil, err
		}
		if p.peek() != ')' {
			return nil, fmt.Errorf("%q: missing \")\" at %d", p.s, p.i+1)
		}
		p.i++
		return t, nil
	case c == byte('a'+p.leaves) && p.leaves < MaxLeaves:
		p.i++
		p.leaves++
		return &Tree{Leaf: p.leaves - 1}, nil
	case c == 0:
		return nil, fmt.Errorf("%q: expected a leaf or \"(\" at the end", p.s)
	}
	return nil, fmt.Errorf("%q: expected %q or \"(\" at %d, found %q", p.s, rune('a'+p.leaves), p.i+1, p.s[p.i])
}

package expr

// Tree is a binary expression tree whose leaves are a, b, c, … in order,
// left to right, each once: Op is 0 for a leaf (the letter 'a'+Leaf), else
// '+', '-' or '*' over L and R.
type Tree struct {
	Op   byte
	Leaf int
	L, R *Tree
}

// Trees enumerates every tree over the leaves lo..hi-1 (hi > lo), the
// subtrees shared: the split point, then the left subtree, the right
// subtree and the operator, each in order. There are Catalan(n−1)·3^(n−1)
// trees of n leaves (10 206 of 6).
func Trees(lo, hi int) []*Tree {
	if hi-lo == 1 {
		return []*Tree{{Leaf: lo}}
	}
	var out []*Tree
	for mid := lo + 1; mid < hi; mid++ {
		left, right := Trees(lo, mid), Trees(mid, hi)
		for _, l := range left {
			for _, r := range right {
				for _, op := range []byte{'+', '-', '*'} {
					out = append(out, &Tree{Op: op, L: l, R: r})
				}
			}
		}
	}
	return out
}

// Poly expands the tree exactly.
func (t *Tree) Poly() Poly {
	switch t.Op {
	case 0:
		return leafPoly(t.Leaf)
	case '+':
		return combine(t.L.Poly(), t.R.Poly(), 1)
	case '-':
		return combine(t.L.Poly(), t.R.Poly(), -1)
	}
	return product(t.L.Poly(), t.R.Poly())
}

func (t *Tree) isSum() bool { return t.Op == '+' || t.Op == '-' }

// String spells the tree in infix with the fewest parentheses that the
// parser (calc.ParseExpr: × binds tighter than + and −, all associate to
// the left) reads back as this tree: a right operand of + or − that is a
// sum, an operand of × that is a sum, and a right operand of × that is a
// product are parenthesized. So a−(b−c) keeps its parentheses, a−b−c needs
// none, and a+(b+c) is another tree than a+b+c.
func (t *Tree) String() string {
	if t.Op == 0 {
		return string(rune('a' + t.Leaf))
	}
	l, r := t.L.String(), t.R.String()
	if t.Op == '*' && t.L.isSum() {
		l = "(" + l + ")"
	}
	if t.R.isSum() || t.Op == '*' && t.R.Op == '*' {
		r = "(" + r + ")"
	}
	return l + string(t.Op) + r
}

// HasPattern reports whether the tree contains a product subtracted from a
// sum: a − node whose left operand is a + node and whose right operand is a
// × node (a+b−c·d); the pattern split holds those out.
func (t *Tree) HasPattern() bool {
	if t.Op == 0 {
		return false
	}
	if t.Op == '-' && t.L.Op == '+' && t.R.Op == '*' {
		return true
	}
	return t.L.HasPattern() || t.R.HasPattern()
}

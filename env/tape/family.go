package tape

import (
	"fmt"
	"math/bits"
	"strings"
)

// ListedLeaves is the largest size whose members are listed in full; the
// larger sizes' members are drawn (Drawn).
const ListedLeaves = 5

// DrawnMembers is how many distinct members a drawn size has.
const DrawnMembers = 1024

// Member is one expression of the family: a binary tree over n leaves with
// + − × inside, spelled with the parentheses its tree needs and no others
// (× binds tighter; all operators associate to the left, so a−(b−c) and
// a+(b+c) keep theirs). Its leaves are Leaf cells in its template; an
// instance puts an operand's digit in each (Tape).
type Member struct {
	Leaves   int
	Cells    []Cell // the template: Leaf at each leaf
	Spelling string // the template spelled, leaves as x: "x-(x+x)*x"
	Depth    int    // the deepest nesting of parentheses (0: none)
	nodes    []node // the tree, the root last
}

// node is a tree node: a leaf (op 0, leaf its index in reading order), an
// operator or max or min over two earlier nodes, or abs over one (left).
type node struct {
	op          Cell
	leaf        int
	left, right int
}

// Shortest is the length of the member's shortest program (ShuntingYard's,
// or ShuntingYardBranching's): every cell consumed once, an APPLY per
// operator, and ANS (a function is resolved as its ")" is consumed).
func (m *Member) Shortest() int {
	applies := 0
	for _, n := range m.nodes {
		if n.op.IsOperator() {
			applies++
		}
	}
	return len(m.Cells) + applies + 1
}

// Tape writes the member's tape on the operands d (d[k] the digit of the
// k-th leaf in reading order, at least Leaves of them) into dst and returns
// it: dst[:len(Cells)].
func (m *Member) Tape(d []int32, dst []Cell) []Cell {
	k := 0
	for i, c := range m.Cells {
		if c == Leaf {
			c = Cell(d[k])
			k++
		}
		dst[i] = c
	}
	return dst[:len(m.Cells)]
}

// Eval is the member's value on the operands d, in int64 wrapping as the
// machine's (from its tree, not its tape). It allocates nothing.
func (m *Member) Eval(d []int32) int64 { return m.eval(len(m.nodes)-1, d) }

func (m *Member) eval(i int, d []int32) int64 {
	n := &m.nodes[i]
	switch {
	case n.op == 0:
		return int64(d[n.leaf])
	case n.op == Abs:
		return branch(Abs, m.eval(n.left, d), 0)
	case n.op.IsFunction():
		return branch(n.op, m.eval(n.left, d), m.eval(n.right, d))
	}
	return apply(n.op, m.eval(n.left, d), m.eval(n.right, d))
}

// builder grows one tree's nodes.
type builder struct {
	nodes  []node
	leaves int
}

func (b *builder) leaf() int {
	b.nodes = append(b.nodes, node{leaf: b.leaves})
	b.leaves++
	return len(b.nodes) - 1
}

func (b *builder) op(op Cell, l, r int) int {
	b.nodes = append(b.nodes, node{op: op, left: l, right: r})
	return len(b.nodes) - 1
}

// member spells a finished tree.
func member(nodes []node, leaves int) Member {
	m := Member{Leaves: leaves, nodes: nodes}
	depth := 0
	var spell func(i, parentPrec int, right bool)
	spell = func(i, parentPrec int, right bool) {
		n := &nodes[i]
		if n.op == 0 {
			m.Cells = append(m.Cells, Leaf)
			return
		}
		if n.op.IsFunction() { // bracketed by itself: never parenthesised
			m.Cells = append(m.Cells, n.op)
			depth++
			m.Depth = max(m.Depth, depth)
			spell(n.left, 0, false)
			if n.op != Abs {
				m.Cells = append(m.Cells, Comma)
				spell(n.right, 0, false)
			}
			m.Cells = append(m.Cells, Close)
			depth--
			return
		}
		p := n.op.precedence()
		paren := p < parentPrec || right && p == parentPrec
		if paren {
			m.Cells = append(m.Cells, Open)
			depth++
			m.Depth = max(m.Depth, depth)
		}
		spell(n.left, p, false)
		m.Cells = append(m.Cells, n.op)
		spell(n.right, p, true)
		if paren {
			m.Cells = append(m.Cells, Close)
			depth--
		}
	}
	spell(len(nodes)-1, 0, false)
	var s strings.Builder
	for _, c := range m.Cells {
		s.WriteString(c.String())
	}
	m.Spelling = s.String()
	return m
}

var (
	operators          = []Cell{Plus, Minus, Times}
	branchingOperators = []Cell{Plus, Minus, Times, Max, Min}
)

// Listed is every member of n leaves (1..ListedLeaves+1 is cheap; more is
// slow), Catalan(n−1)·3^(n−1) of them, in a fixed order: by the left
// subtree's size, then the operator (+ − ×), then the left subtree's and
// the right subtree's own order.
func Listed(n int) []Member { return listed(n, false) }

// ListedBranching is every branching member of n leaves (up to
// BranchingListedLeaves; more is slow): binary nodes over + − × max min,
// each node but a leaf either bare or inside abs, Catalan(n−1)·10^(n−1) of
// them, in Listed's order with max and min after ×, and each tree before
// its abs.
func ListedBranching(n int) []Member { return listed(n, true) }

func listed(n int, branching bool) []Member {
	var out []Member
	for _, t := range listTrees(n, branching) {
		out = append(out, member(t.nodes, t.leaves))
	}
	return out
}

// listTrees is every tree of n leaves, each its own builder.
func listTrees(n int, branching bool) []builder {
	if n == 1 {
		b := builder{}
		b.leaf()
		return []builder{b}
	}
	ops := operators
	if branching {
		ops = branchingOperators
	}
	var out []builder
	for k := 1; k < n; k++ {
		lefts, rights := listTrees(k, branching), listTrees(n-k, branching)
		for _, op := range ops {
			for _, l := range lefts {
				for _, r := range rights {
					b := builder{nodes: append([]node(nil), l.nodes...), leaves: l.leaves}
					for _, rn := range r.nodes { // shift the right subtree's nodes and leaves
						if rn.op == 0 {
							rn.leaf += l.leaves
						} else {
							rn.left += len(l.nodes)
							rn.right += len(l.nodes)
						}
						b.nodes = append(b.nodes, rn)
					}
					b.leaves += r.leaves
					b.op(op, len(l.nodes)-1, len(b.nodes)-1)
					out = append(out, b)
					if branching {
						a := builder{nodes: append([]node(nil), b.nodes...), leaves: b.leaves}
						a.op(Abs, len(a.nodes)-1, -1)
						out = append(out, a)
					}
				}
			}
		}
	}
	return out
}

// Drawn is draw i of n leaves, a pure function of (n, i), by the grammar:
// a tree of n > 1 leaves is an operator drawn uniformly from + − × over a
// left subtree of k leaves, k drawn uniformly from 1..n−1, and a right one
// of n−k, drawn the same way (left first; the draws from SplitMix64 seeded
// by n and i).
func Drawn(n int, i uint64) Member {
	r := splitMix{state: uint64(n)<<40 ^ i*0x9e3779b97f4a7c15 ^ 0x7a9e_0001}
	b := builder{}
	var grow func(n int) int
	grow = func(n int) int {
		if n == 1 {
			return b.leaf()
		}
		k := 1 + int(r.below(uint64(n-1)))
		op := operators[r.below(3)]
		l := grow(k)
		return b.op(op, l, grow(n-k))
	}
	grow(n)
	return member(b.nodes, b.leaves)
}

// BranchingListedLeaves is the largest branching size listed in full (5000
// members at 4 leaves; 5 would list 140,000); larger ones are drawn
// (DrawnBranching).
const BranchingListedLeaves = 4

// DrawnBranching is branching draw i of n leaves, a pure function of (n,
// i), by the grammar: a tree of n > 1 leaves is an operator drawn
// uniformly from + − × max min over a left subtree of k leaves, k drawn
// uniformly from 1..n−1, and a right one of n−k, drawn the same way, the
// whole inside abs with probability 1/4 (k, the operator, abs, then the
// left subtree and the right; from SplitMix64 seeded by n and i, another
// stream than Drawn's).
func DrawnBranching(n int, i uint64) Member {
	r := splitMix{state: uint64(n)<<40 ^ i*0x9e3779b97f4a7c15 ^ 0x7a9e_0b01}
	b := builder{}
	var grow func(n int) int
	grow = func(n int) int {
		if n == 1 {
			return b.leaf()
		}
		k := 1 + int(r.below(uint64(n-1)))
		op := branchingOperators[r.below(uint64(len(branchingOperators)))]
		abs := r.below(4) == 0
		l := grow(k)
		node := b.op(op, l, grow(n-k))
		if abs {
			node = b.op(Abs, node, -1)
		}
		return node
	}
	grow(n)
	return member(b.nodes, b.leaves)
}

// FamilyOf is Family, or with branching the branching members of size n:
// ListedBranching(n) up to BranchingListedLeaves, else the first
// DrawnMembers distinct draws of DrawnBranching.
func FamilyOf(n int, branching bool) ([]Member, error) {
	if !branching {
		return Family(n)
	}
	if n < 2 || n > MaxLeaves {
		return nil, fmt.Errorf("tape: a member has 2..%d leaves, not %d", MaxLeaves, n)
	}
	if n <= BranchingListedLeaves {
		return ListedBranching(n), nil
	}
	return distinct(func(i uint64) Member { return DrawnBranching(n, i) }), nil
}

// distinct is the first DrawnMembers distinct members of draw(0), draw(1),
// … (a draw spelled as an earlier one skipped), in that order.
func distinct(draw func(i uint64) Member) []Member {
	out := make([]Member, 0, DrawnMembers)
	seen := map[string]bool{}
	for i := uint64(0); len(out) < DrawnMembers; i++ {
		m := draw(i)
		if !seen[m.Spelling] {
			seen[m.Spelling] = true
			out = append(out, m)
		}
	}
	return out
}

// Family is the members of size n (2..MaxLeaves): Listed(n) up to
// ListedLeaves, else the first DrawnMembers distinct draws (Drawn(n, 0),
// Drawn(n, 1), …, a draw spelled as an earlier one skipped), in that order.
func Family(n int) ([]Member, error) {
	if n < 2 || n > MaxLeaves {
		return nil, fmt.Errorf("tape: a member has 2..%d leaves, not %d", MaxLeaves, n)
	}
	if n <= ListedLeaves {
		return Listed(n), nil
	}
	return distinct(func(i uint64) Member { return Drawn(n, i) }), nil
}

// splitMix is SplitMix64 (Steele, Lea and Flood, 2014).
type splitMix struct{ state uint64 }

func (s *splitMix) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// below is uniform in [0, n) (Lemire's multiply, its bias below 2^-60 for
// the small n drawn here).
func (s *splitMix) below(n uint64) uint64 {
	hi, _ := bits.Mul64(s.next(), n)
	return hi
}

package expr

import (
	"fmt"

	"github.com/simdrl/simdrl/env/calc"
)

// tools are the tokens a program is made of before its ANS, in the order
// the search tries them (which decides the program it reports among the
// shortest).
var tools = [...]int32{calc.LOAD, calc.ADD, calc.SUB, calc.MUL, calc.STO, calc.MADD, calc.MSUB}

// SearchResult is what Search finds for each target.
type SearchResult struct {
	// Programs are, per target, the first shortest program found (ANS
	// included), nil when none of at most maxLen tokens has its
	// fingerprint.
	Programs [][]int32
	States   int   // machine states stored (the breadth-first layers)
	Tail     int64 // states visited depth-first beyond them
}

// StoreDepth is the deepest layer the search stores; the states beyond it
// are visited depth-first (no duplicate detection among them, so time
// instead of memory: 6 leaves store about 3.4 M states).
const StoreDepth = 12

// node is one stored state: the registers' fingerprints, the operand
// pointer, and how it was reached.
type node struct {
	v, m   fingerprint
	parent int32
	p, tok uint8
	dv, dm uint8 // the leaves that flow into v and into m (bit k: leaf k)
}

const blockNodes = 1 << 16

type searcher struct {
	n, maxLen int
	targets   map[fingerprint]int32
	best      []int // per target: the shortest length found, 0 for none
	progs     [][]int32
	blocks    [][]node
	count     int
	table     []int32 // open addressing: node index + 1, 0 empty
	tail      int64
	path      []int32 // the depth-first suffix being visited
}

// Search finds, for every target polynomial of n leaves, a shortest program
// of at most maxLen tokens (ANS included) of the 19-token machine
// (calc.Ops) whose answer has the target's fingerprint, by one
// breadth-first search over the machine's states (p, v, m) for all the
// targets at once: layer d holds the states first reached by d tokens,
// each state once, told apart by its fingerprint; beyond StoreDepth the
// search goes on depth first. A state that cannot read its remaining
// operands and answer within maxLen is not expanded (every target depends
// on all n leaves), nor is a tool that reads an operand when none is left
// (it does nothing).
//
// The lengths are exact, whatever the fingerprints' collisions: every
// program that computes a target has the target's fingerprint, and the
// search visits the fingerprints of every program (fingerprints commute
// with the tools, so two programs that reach one fingerprint state behave
// alike on fingerprints from then on). So a reported program is at most as
// long as a shortest one, and once it is verified to compute its target
// (the caller does: Verify), it is a shortest one; a target without a
// program has none within maxLen. It fails when two targets share a
// fingerprint.
func Search(n int, targets []Poly, maxLen int) (SearchResult, error) {
	if n < 1 || n > MaxLeaves || maxLen < 1 || maxLen > calc.MaxBudget {
		return SearchResult{}, fmt.Errorf("search of %d leaves within %d tokens: leaves 1..%d, tokens 1..%d", n, maxLen, MaxLeaves, calc.MaxBudget)
	}
	s := &searcher{n: n, maxLen: maxLen, targets: map[fingerprint]int32{}, best: make([]int, len(targets)),
		progs: make([][]int32, len(targets)), table: make([]int32, 1<<16)}
	for i, t := range targets {
		f := fingerprintOf(t)
		if j, ok := s.targets[f]; ok {
			return SearchResult{}, fmt.Errorf("targets %v and %v share a fingerprint", targets[j], t)
		}
		s.targets[f] = int32(i)
	}
	s.insert(node{parent: -1})
	lo, hi := 0, 1
	for depth := 1; depth < maxLen && depth <= StoreDepth; depth++ {
		for i := lo; i < hi; i++ {
			parent := *s.at(i)
			for _, tok := range tools {
				c, ok := s.child(&parent, tok, depth)
				if !ok {
					continue
				}
				c.parent, c.tok = int32(i), uint8(tok)
				if s.insert(c) {
					s.check(&c, depth, s.count-1)
				}
			}
		}
		lo, hi = hi, s.count
	}
	if StoreDepth+1 < maxLen {
		for i := lo; i < hi; i++ {
			s.dfs(*s.at(i), StoreDepth, i)
		}
	}
	return SearchResult{Programs: s.progs, States: s.count, Tail: s.tail}, nil
}

func (s *searcher) at(i int) *node { return &s.blocks[i/blockNodes][i%blockNodes] }

// child applies tool tok to parent, the child at depth tokens; !ok when the
// tool does nothing or the child cannot finish within maxLen.
func (s *searcher) child(parent *node, tok int32, depth int) (node, bool) {
	c := *parent
	switch tok {
	case calc.LOAD, calc.ADD, calc.SUB, calc.MUL:
		if int(c.p) >= s.n {
			return c, false
		}
		x := &points
		for i := range c.v {
			xi := x[i][c.p]
			switch tok {
			case calc.LOAD:
				c.v[i] = xi
			case calc.ADD:
				c.v[i] = addMod(c.v[i], xi)
			case calc.SUB:
				c.v[i] = subMod(c.v[i], xi)
			default:
				c.v[i] = mulMod(c.v[i], xi)
			}
		}
		if tok == calc.LOAD {
			c.dv = 0
		}
		c.dv |= 1 << c.p
		c.p++
	case calc.STO:
		c.m, c.dm = c.v, c.dv
	case calc.MADD:
		for i := range c.v {
			c.v[i] = addMod(c.m[i], c.v[i])
		}
		c.dv |= c.dm
	case calc.MSUB:
		for i := range c.v {
			c.v[i] = subMod(c.m[i], c.v[i])
		}
		c.dv |= c.dm
	}
	if c.dv|c.dm != 1<<c.p-1 {
		return c, false // a leaf read is lost: no target follows
	}
	return c, depth+(s.n-int(c.p))+1 <= s.maxLen
}

func hashNode(c *node) uint64 {
	h := (c.v[0] ^ uint64(c.p)<<56 ^ uint64(c.dv)<<48 ^ uint64(c.dm)<<40) * 0x9E3779B97F4A7C15
	h = (h ^ h>>29 ^ c.m[0]) * 0xBF58476D1CE4E5B9
	h = (h ^ h>>31 ^ c.v[1]) * 0x94D049BB133111EB
	return h ^ h>>32
}

func same(a, b *node) bool {
	return a.v == b.v && a.m == b.m && a.p == b.p && a.dv == b.dv && a.dm == b.dm
}

// find returns the slot of c's state in the table: its index + 1 there, or
// the empty slot where it goes.
func (s *searcher) find(c *node) (slot int, idx int32) {
	mask := len(s.table) - 1
	for j := int(hashNode(c)) & mask; ; j = (j + 1) & mask {
		if s.table[j] == 0 || same(s.at(int(s.table[j]-1)), c) {
			return j, s.table[j]
		}
	}
}

// insert stores c unless its state is stored; it reports whether it was new.
func (s *searcher) insert(c node) bool {
	j, idx := s.find(&c)
	if idx != 0 {
		return false
	}
	if s.count%blockNodes == 0 {
		s.blocks = append(s.blocks, make([]node, blockNodes))
	}
	*s.at(s.count) = c
	s.count++
	s.table[j] = int32(s.count)
	if 2*s.count > len(s.table) {
		s.grow()
	}
	return true
}

func (s *searcher) grow() {
	s.table = make([]int32, 2*len(s.table))
	mask := len(s.table) - 1
	for i := 0; i < s.count; i++ {
		j := int(hashNode(s.at(i))) & mask
		for s.table[j] != 0 {
			j = (j + 1) & mask
		}
		s.table[j] = int32(i + 1)
	}
}

// check records c, reached by depth tokens (stored at index k, or visited
// depth first from stored node k with s.path), when it answers a target
// not yet reached by as few tokens.
func (s *searcher) check(c *node, depth, k int) {
	if int(c.p) != s.n {
		return
	}
	t, ok := s.targets[c.v]
	if !ok || s.best[t] != 0 && s.best[t] <= depth+1 {
		return
	}
	s.best[t] = depth + 1
	var prog []int32
	for j := k; s.at(j).parent >= 0; j = int(s.at(j).parent) {
		prog = append(prog, int32(s.at(j).tok))
	}
	for a, b := 0, len(prog)-1; a < b; a, b = a+1, b-1 {
		prog[a], prog[b] = prog[b], prog[a]
	}
	prog = append(prog, s.path...)
	s.progs[t] = append(prog, calc.ANS)
}

// dfs visits every state reachable from c (reached by depth tokens, the
// stored node k followed by s.path) within maxLen−1 tokens. A child whose
// state is stored was reached by at most StoreDepth tokens, and everything
// after it is visited from there.
func (s *searcher) dfs(c node, depth, k int) {
	for _, tok := range tools {
		ch, ok := s.child(&c, tok, depth+1)
		if !ok {
			continue
		}
		if depth+1 <= StoreDepth+2 {
			if _, idx := s.find(&ch); idx != 0 {
				continue
			}
		}
		s.tail++
		s.path = append(s.path, tok)
		s.check(&ch, depth+1, k)
		if depth+2 < s.maxLen {
			s.dfs(ch, depth+1, k)
		}
		s.path = s.path[:len(s.path)-1]
	}
}

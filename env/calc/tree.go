package calc

import (
	"fmt"
	"strings"
	"time"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/rng"
)

// A level whose expression branches (abs, max, min) has in general no fixed
// program: which tokens compute |a−b| depends on the sign of a−b. With the
// sign observation after every token (Machine.Observe) a policy can branch,
// and its program is a decision tree: a token at each node, then one child
// per observation that can follow. SearchTree finds one whose every path
// answers correctly, of the least worst-case length.

// Tree is a closed-loop program: Nodes[0] is the first token; after a node's
// token the machine's observation o picks Next[o], the node of the next
// token (-1 for an observation that never follows there). An ANS node ends
// its path.
type Tree struct {
	Nodes []TreeNode
}

// TreeNode is one token of a Tree and its children by observation.
type TreeNode struct {
	Token int32
	Next  [NumObservations]int32
}

// Depth is the tree's worst-case length: the tokens on its longest path,
// ANS included.
func (t *Tree) Depth() int {
	if t == nil || len(t.Nodes) == 0 {
		return 0
	}
	return t.depth(0)
}

func (t *Tree) depth(i int32) int {
	d := 0
	for _, c := range t.Nodes[i].Next {
		if c >= 0 {
			d = max(d, t.depth(c))
		}
	}
	return d + 1
}

// Program is the tokens the tree writes on the digits (its path there), at
// most MaxBudget of them.
func (t *Tree) Program(digits *[MaxVars]int32, n int32) []int32 {
	var prog []int32
	var m Machine
	for i := int32(0); i >= 0 && len(prog) < MaxBudget; {
		nd := &t.Nodes[i]
		prog = append(prog, nd.Token)
		op := BranchOps[nd.Token]
		if op.Kind == interp.KindAnswer {
			break
		}
		m.Apply(op, digits, n)
		i = nd.Next[m.Observe()]
	}
	return prog
}

// answer runs the tree on the digits and returns v at its ANS.
func (t *Tree) answer(digits *[MaxVars]int32, n int32) (int64, bool) {
	var m Machine
	i := int32(0)
	for steps := 0; i >= 0 && steps < MaxBudget; steps++ {
		nd := &t.Nodes[i]
		op := BranchOps[nd.Token]
		if op.Kind == interp.KindAnswer {
			return m.V, true
		}
		m.Apply(op, digits, n)
		i = nd.Next[m.Observe()]
	}
	return 0, false
}

// String spells the tree, one node a line, children indented under the
// observation that leads to them; a node with one child continues on its
// line ("[LOAD] [SUB] ...").
func (t *Tree) String() string {
	if t == nil || len(t.Nodes) == 0 {
		return "(none)"
	}
	var b strings.Builder
	t.write(&b, 0, 0)
	return strings.TrimRight(b.String(), "\n")
}

func (t *Tree) write(b *strings.Builder, i int32, indent int) {
	for {
		nd := &t.Nodes[i]
		b.WriteString(TokenName(nd.Token))
		var kids []int
		for o, c := range nd.Next {
			if c >= 0 {
				kids = append(kids, o)
			}
		}
		if len(kids) == 0 {
			b.WriteByte('\n')
			return
		}
		// Observations that lead to the same node are one branch.
		if len(kids) == 1 || allSame(nd.Next[:], kids) {
			b.WriteByte(' ')
			i = nd.Next[kids[0]]
			continue
		}
		b.WriteByte('\n')
		for _, o := range kids {
			fmt.Fprintf(b, "%s%s: ", strings.Repeat("  ", indent+1), ObservationName(int32(o)))
			t.write(b, nd.Next[o], indent+1)
		}
		return
	}
}

func allSame(next []int32, kids []int) bool {
	for _, o := range kids {
		if next[o] != next[kids[0]] {
			return false
		}
	}
	return true
}

// TreeComputes reports whether the tree answers e on every digit tuple (or,
// beyond verifyAllUpTo tuples, on verifySamples drawn from a fixed stream).
func TreeComputes(e *Expr, t *Tree) bool {
	return len(treeFailures(e, t, verifyAllUpTo, 1)) == 0
}

// treeFailures returns up to most tuples on which the tree does not answer
// e: every tuple when there are at most limit, else min(limit,
// verifySamples) from the fixed stream.
func treeFailures(e *Expr, t *Tree, limit uint64, most int) [][MaxVars]int32 {
	var bad [][MaxVars]int32
	check := func(d *[MaxVars]int32) bool {
		if v, ok := t.answer(d, e.vars); !ok || v != e.Eval(d) {
			bad = append(bad, *d)
		}
		return len(bad) < most
	}
	space := tupleSpace(e.vars)
	var d [MaxVars]int32
	if space <= limit {
		for idx := uint64(0); idx < space; idx++ {
			tupleDigits(idx, e.vars, &d)
			if !check(&d) {
				break
			}
		}
		return bad
	}
	for i := uint32(0); uint64(i) < min(limit, verifySamples); i++ {
		w := verifyKey.Block(0, i, 0, rng.PurposeEval)
		tupleDigits(below64(w[0], w[1], space), e.vars, &d)
		if !check(&d) {
			break
		}
	}
	return bad
}

// TreeResult is what SearchTree finds.
type TreeResult struct {
	Tree   *Tree // a tree of least worst-case length that computes e; nil if none
	States int   // search nodes expanded (a set of tuples' machines, and the tokens left)
	Rounds int   // counterexample rounds: trees right on the search's tuples but wrong elsewhere
	Capped bool  // the search stopped at its state cap or its round cap without a tree
}

// Found reports whether a tree was found.
func (r TreeResult) Found() bool { return r.Tree != nil }

// SearchTree finds a decision tree of at most maxLen tokens on its longest
// path (ANS included), over the branching machine's tools (BranchOps), that
// answers e on every digit tuple, and of the least worst-case length.
//
// It is an AND-OR depth-first search by iterative deepening over a set of
// tuples, at first the probe contexts: at a node, all the set's tuples
// share the tokens so far; ANS solves it when v is the target on every one;
// otherwise a tool solves it when, split by the observation after it, every
// part is solved with one token less. A node that fails is remembered, by a
// 64-bit hash of its tuples' machines and the tokens left, so that it is
// never searched twice (a collision could only hide a tree, never accept a
// wrong one: every tree is verified). A found tree is verified on every
// digit tuple (as Computes); the tuples it fails on join the set and the
// search goes on from the same length (counterexample-guided), at most
// maxTreeRounds times. The operand pruning of Search applies: a path must
// consume the operands e depends on.
//
// It stops, with Capped set, after MaxSearchStates nodes, so its time and
// memory are bounded for any expression.
func SearchTree(e *Expr, maxLen int) TreeResult {
	r, _ := newTreeSearcher(e, searchLimits{states: MaxSearchStates}).run(maxLen)
	return r
}

// maxTreeRounds bounds the counterexample rounds of one tree search;
// treeCounterexamples is how many failing tuples a round adds.
const (
	maxTreeRounds       = 32
	treeCounterexamples = 8
)

// treeSlot is one tuple's machine at a search node.
type treeSlot struct {
	tuple int32 // index in treeSearcher.digits
	m     Machine
}

type treeSearcher struct {
	e       *Expr
	n       int32
	need    int32
	tools   []int32
	digits  [][MaxVars]int32
	targets []int64
	failed  map[uint64]int8 // node hash → the most tokens left with which it failed
	nodes   []TreeNode      // the tree being built, children before parents
	result  TreeResult

	limits       searchLimits
	expansions   int
	start        time.Time
	nextProgress time.Duration
	err          error
}

func newTreeSearcher(e *Expr, limits searchLimits) *treeSearcher {
	s := &treeSearcher{e: e, n: e.vars, need: dependsUpTo(e), limits: limits, start: time.Now(),
		nextProgress: progressEvery, failed: map[uint64]int8{}}
	for tok := int32(FirstTool); tok < BranchVocab; tok++ {
		if tok != ANS {
			s.tools = append(s.tools, tok)
		}
	}
	seen := map[uint64]bool{}
	for c := range probes {
		var d [MaxVars]int32
		copy(d[:e.vars], probes[c][:e.vars])
		if idx := tupleIndex(&d, e.vars); !seen[idx] {
			seen[idx] = true
			s.addTuple(d)
		}
	}
	return s
}

func (s *treeSearcher) addTuple(d [MaxVars]int32) {
	s.digits = append(s.digits, d)
	s.targets = append(s.targets, s.e.Eval(&d))
}

// run searches trees up to maxLen tokens deep; ErrInterrupted when the
// interrupt channel closes, Capped at the caps.
func (s *treeSearcher) run(maxLen int) (TreeResult, error) {
	searchesRun.Add(1)
	defer func() { statesVisited.Add(int64(s.result.States)) }()
	maxLen = min(maxLen, MaxBudget)
	for depth := 1; depth <= maxLen; {
		s.nodes = s.nodes[:0]
		root := make([]treeSlot, len(s.digits))
		for i := range root {
			root[i].tuple = int32(i)
		}
		top := s.solve(root, depth)
		if top < 0 {
			if s.err != nil || s.result.Capped {
				return s.result, s.err
			}
			depth++
			continue
		}
		t := reroot(s.nodes, top)
		bad := treeFailures(s.e, t, verifyAllUpTo, treeCounterexamples)
		if len(bad) == 0 {
			s.result.Tree = t
			return s.result, nil
		}
		s.result.Rounds++
		if s.result.Rounds >= maxTreeRounds {
			s.result.Capped = true
			return s.result, nil
		}
		for _, d := range bad {
			s.addTuple(d)
		}
		// Shorter trees fail on fewer tuples already: the same depth again.
	}
	return s.result, nil
}

// stopped is searcher.stopped for the tree search.
func (s *treeSearcher) stopped() bool {
	if s.result.States >= s.limits.states {
		s.result.Capped = true
		return true
	}
	s.result.States++
	s.expansions++
	if s.expansions%checkEvery != 1 {
		return false
	}
	select {
	case <-s.limits.interrupt:
		s.err = ErrInterrupted
		return true
	default:
	}
	if s.limits.progress != nil {
		if el := time.Since(s.start); el >= s.nextProgress {
			s.limits.progress(s.result.States, el)
			s.nextProgress = el + progressEvery
		}
	}
	return false
}

// hashNode mixes the tokens left and every slot's tuple and machine.
func hashNode(slots []treeSlot, left int) uint64 {
	h := uint64(left)*0x9E3779B97F4A7C15 + uint64(len(slots))
	for _, sl := range slots {
		h = (h ^ uint64(sl.tuple)) * 0xBF58476D1CE4E5B9
		h = (h ^ uint64(sl.m.V)) * 0x94D049BB133111EB
		h ^= h >> 29
		h = (h ^ uint64(sl.m.M)) * 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return (h ^ uint64(slots[0].m.P)) * 0x94D049BB133111EB
}

// solve returns the index of a tree node solving the slots with at most
// left tokens, or -1; the slots' tuples all had the same observations so
// far, so they share the operand pointer.
func (s *treeSearcher) solve(slots []treeSlot, left int) int32 {
	if left < 1 {
		return -1
	}
	solved := true
	for _, sl := range slots {
		if sl.m.V != s.targets[sl.tuple] {
			solved = false
			break
		}
	}
	if solved {
		return s.add(TreeNode{Token: ANS})
	}
	p := slots[0].m.P
	if left == 1 || s.need > p && int(s.need-p)+1 > left {
		return -1
	}
	h := hashNode(slots, 0) // the tokens left are the value stored
	if f, ok := s.failed[h]; ok && int(f) >= left {
		return -1
	}
	if s.stopped() {
		return -1
	}
	mark := len(s.nodes)
	next := make([]treeSlot, len(slots))
	kids := make([]treeSlot, len(slots))
	for _, tok := range s.tools {
		op := BranchOps[tok]
		if op.Src == interp.SrcOperand && p >= s.n {
			continue // no operand left: the token does nothing
		}
		// The children's slots, grouped by observation (in tuple order within one).
		var count [NumObservations]int
		changed := op.Src == interp.SrcOperand
		for i, sl := range slots {
			m := sl.m
			m.Apply(op, &s.digits[sl.tuple], s.n)
			changed = changed || m != sl.m
			count[m.Observe()]++
			next[i] = treeSlot{sl.tuple, m}
		}
		if !changed {
			continue // the token does nothing on every tuple here
		}
		var at [NumObservations + 1]int
		for o := 0; o < NumObservations; o++ {
			at[o+1] = at[o] + count[o]
		}
		fill := at
		for _, sl := range next {
			o := sl.m.Observe()
			kids[fill[o]] = sl
			fill[o]++
		}
		nd := TreeNode{Token: tok}
		ok := true
		for o := 0; o < NumObservations && ok; o++ {
			nd.Next[o] = -1
			if count[o] == 0 {
				continue
			}
			c := s.solve(kids[at[o]:at[o+1]], left-1)
			if c < 0 {
				ok = false
				break
			}
			nd.Next[o] = c
		}
		if ok {
			return s.add(nd)
		}
		s.nodes = s.nodes[:mark]
		if s.err != nil || s.result.Capped {
			return -1
		}
	}
	s.failed[h] = int8(left)
	return -1
}

func (s *treeSearcher) add(nd TreeNode) int32 {
	if nd.Token == ANS {
		for o := range nd.Next {
			nd.Next[o] = -1
		}
	}
	s.nodes = append(s.nodes, nd)
	return int32(len(s.nodes) - 1)
}

// reroot copies the tree under node top of nodes (children before parents)
// into a Tree whose Nodes[0] is top, in depth-first order.
func reroot(nodes []TreeNode, top int32) *Tree {
	t := &Tree{}
	var visit func(i int32) int32
	visit = func(i int32) int32 {
		k := int32(len(t.Nodes))
		t.Nodes = append(t.Nodes, nodes[i])
		for o, c := range nodes[i].Next {
			if c >= 0 {
				kid := visit(c) // appends: index t.Nodes only after
				t.Nodes[k].Next[o] = kid
			}
		}
		return k
	}
	visit(top)
	return t
}

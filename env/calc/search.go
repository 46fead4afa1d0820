package calc

import (
	"slices"
	"time"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/rng"
)

// MaxSearchLen is the longest program (ANS included) that level validation
// searches for; the search's cost grows about fivefold per token, and at 12
// it stays well under a second on the default levels. Longer budgets are met
// by compiling the expression (see ParseLevel). A branching level's explicit
// budget is its tree search's depth instead, up to MaxBudget: no compiler
// writes trees, and MaxSearchStates bounds that search at any depth.
const MaxSearchLen = 12

// verifyAllUpTo is the largest digit space checked exhaustively; larger ones
// are checked on verifySamples tuples from a fixed stream.
const (
	verifyAllUpTo = 1_000_000
	verifySamples = 200_000
)

// SearchResult is what Search finds.
type SearchResult struct {
	Program  []int32 // a shortest program that computes the expression, ending with ANS; nil if none
	States   int     // distinct machine states (across the probe contexts) visited
	Rejected int     // programs right on every probe context but wrong on the verification set
	Capped   bool    // the search stopped at its state cap (MaxSearchStates) or rejection cap (maxRejected) without a program
}

// Found reports whether a program was found.
func (r SearchResult) Found() bool { return r.Program != nil }

// Search finds a shortest program of at most maxLen tokens (ANS included)
// whose answer is e on every context, using the tools FirstTool..ANS except
// those in without (ANS cannot be removed).
//
// It is a breadth-first search over machine states, where a state is the
// machines (v, m, p) on all NumProbes probe contexts at once; two programs
// reaching the same state vector behave the same on every probe from then
// on, so each state vector is expanded once (compared whole, not by hash).
// A program whose v equals e on every probe is then verified on every digit
// tuple (or verifySamples of them when there are more than verifyAllUpTo);
// one that fails is counted in Rejected and the search goes on. The answer
// is exact when Rejected is 0: a program that the probe-level merging could
// hide has a stand-in, equal on every probe, which the search reaches at the
// same length and would have rejected.
//
// One sound pruning keeps it fast: if e depends on digit k (some probe
// changes e when only digit k changes), a program must consume operands up to
// k, one token each, so a state whose remaining budget cannot consume them
// and answer is not expanded.
//
// It stops, with Capped set, after MaxSearchStates states (or maxRejected
// rejections), so its time and memory are bounded for any expression.
func Search(e *Expr, maxLen int, without ...int32) SearchResult {
	r, _ := newSearcher(e, without, searchLimits{states: MaxSearchStates}).run(maxLen)
	return r
}

// searchLimits bounds and observes one search.
type searchLimits struct {
	states    int             // stop after this many states (Capped)
	interrupt <-chan struct{} // closed: stop with ErrInterrupted
	progress  func(states int, elapsed time.Duration)
}

// checkEvery is how many expansions pass between looks at the interrupt
// channel and the clock: a few milliseconds of work.
const checkEvery = 1 << 12

// progressEvery is when a running search first reports progress, and then
// how often (a variable for tests).
var progressEvery = time.Second

type searcher struct {
	e       *Expr
	ops     []interp.Op // the machine: Ops, or BranchOps (fixedProgramOn)
	n       int32
	need    int32 // operands any computing program must consume
	tools   []int32
	memLive bool // some tool reads m; if none, m is kept at 0 so that states merge
	target  [NumProbes]int64

	// The states, in blocks that never move (appending to one big slice
	// would copy hundreds of megabytes as it grows).
	blocks [][]int64 // per state: v on each probe, then m on each probe
	ptr    []int32   // per state: the operand pointer (the same on every probe)
	parent []int32
	token  []int32
	hashes []uint64
	table  []int32 // open addressing: state index + 1, 0 = empty
	result SearchResult

	limits       searchLimits
	expansions   int
	start        time.Time
	nextProgress time.Duration
	err          error // ErrInterrupted once the interrupt channel closed
}

const (
	stateWords  = 2 * NumProbes
	blockStates = 1 << 10
	hashProbes  = 16 // the hash reads this many probes; equality reads them all
)

func newSearcher(e *Expr, without []int32, limits searchLimits) *searcher {
	return newSearcherOps(e, Ops[:], without, limits)
}

// newSearcherOps is newSearcher on the machine of the table ops: its tools
// are every token from FirstTool on but ANS.
func newSearcherOps(e *Expr, ops []interp.Op, without []int32, limits searchLimits) *searcher {
	s := &searcher{e: e, ops: ops, n: e.vars, limits: limits, start: time.Now(), nextProgress: progressEvery}
	for tok := int32(FirstTool); int(tok) < len(ops); tok++ {
		if tok == ANS || slices.Contains(without, tok) {
			continue
		}
		s.tools = append(s.tools, tok)
		if ops[tok].Src == interp.SrcM {
			s.memLive = true
		}
	}
	for c := range probes {
		s.target[c] = e.Eval(&probes[c])
	}
	s.need = dependsUpTo(e)
	s.table = make([]int32, 1<<12)
	return s
}

// dependsUpTo returns 1 + the highest digit index the expression provably
// depends on (a witness: two probes differing only in that digit give
// different values), or 0 if none is found.
func dependsUpTo(e *Expr) int32 {
	need := int32(0)
	for k := int32(0); k < e.vars; k++ {
	probe:
		for c := range probes {
			d := probes[c]
			base := e.Eval(&d)
			for alt := int32(0); alt < 10; alt++ {
				d[k] = alt
				if e.Eval(&d) != base {
					need = k + 1
					break probe
				}
			}
		}
	}
	return need
}

// run searches up to maxLen tokens; it returns ErrInterrupted when the
// interrupt channel closes, and stops with Capped at the caps.
func (s *searcher) run(maxLen int) (SearchResult, error) {
	searchesRun.Add(1)
	defer func() { statesVisited.Add(int64(s.result.States)) }()
	if maxLen < 1 {
		return s.result, nil
	}
	clear(s.slot()) // the start state: every register 0
	if s.commit(0, -1, 0) && s.solves(0) {
		return s.result, nil
	}
	lo, hi := 0, 1
	for depth := 1; depth < maxLen; depth++ {
		for i := lo; i < hi; i++ {
			if s.stopped() {
				return s.result, s.err
			}
			for _, tok := range s.tools {
				if s.ops[tok].Src == interp.SrcOperand && s.ptr[i] >= s.n {
					continue // no operand left: the child is its parent
				}
				p := s.step(i, tok, s.slot())
				if s.need > p && int32(depth)+(s.need-p)+1 > int32(maxLen) {
					continue
				}
				if depth == maxLen-1 {
					// The last layer is only ever answered: check it, never store it.
					if s.solvesLast(i, tok) {
						return s.result, nil
					}
					continue
				}
				if s.commit(p, int32(i), tok) && s.solves(len(s.ptr)-1) {
					return s.result, nil
				}
			}
		}
		lo, hi = hi, len(s.ptr)
		if lo == hi {
			break
		}
	}
	if s.result.Capped {
		return s.result, nil
	}
	return s.result, s.err
}

// stopped counts an expansion and reports whether the search must stop: a
// cap reached (Capped) or the interrupt channel closed (err); every
// checkEvery expansions it looks at the channel and reports progress.
func (s *searcher) stopped() bool {
	if s.result.States >= s.limits.states || s.result.Rejected >= maxRejected {
		s.result.Capped = true
		return true
	}
	s.expansions++
	if s.expansions%checkEvery != 1 { // the first expansion checks too: an interrupt before the search costs nothing
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

// regs returns state k's registers.
func (s *searcher) regs(k int) []int64 {
	b := s.blocks[k/blockStates]
	o := (k % blockStates) * stateWords
	return b[o : o+stateWords]
}

// slot returns the registers of the next state to be committed.
func (s *searcher) slot() []int64 {
	k := len(s.ptr)
	if k/blockStates == len(s.blocks) {
		s.blocks = append(s.blocks, make([]int64, blockStates*stateWords))
	}
	return s.regs(k)
}

// step applies tool tok to state i on every probe, writing the child's
// registers into child and returning its operand pointer.
func (s *searcher) step(i int, tok int32, child []int64) int32 {
	op := s.ops[tok]
	r := s.regs(i)
	v, m := r[:NumProbes], r[NumProbes:]
	p := s.ptr[i]
	for c := range probes {
		mc := Machine{V: v[c], M: m[c], P: p}
		mc.Apply(op, &probes[c], s.n)
		child[c] = mc.V
		if s.memLive {
			child[NumProbes+c] = mc.M
		} else {
			child[NumProbes+c] = 0
		}
	}
	// The pointer does not depend on the digits: probe 0 tells.
	mc := Machine{P: p}
	mc.Apply(op, &probes[0], s.n)
	return mc.P
}

// commit keeps the state in slot() unless an equal one exists; it reports
// whether it was new.
func (s *searcher) commit(p int32, parent int32, tok int32) bool {
	if s.result.States >= s.limits.states {
		s.result.Capped = true // never more than the cap: the next expansion stops
		return false
	}
	k := len(s.ptr)
	regs := s.regs(k)
	h := hashState(regs, p)
	mask := uint64(len(s.table) - 1)
	for j := h & mask; ; j = (j + 1) & mask {
		idx := s.table[j]
		if idx == 0 {
			s.table[j] = int32(k) + 1
			break
		}
		o := int(idx - 1)
		if s.hashes[o] == h && s.ptr[o] == p && slices.Equal(s.regs(o), regs) {
			return false
		}
	}
	s.ptr = append(s.ptr, p)
	s.parent = append(s.parent, parent)
	s.token = append(s.token, tok)
	s.hashes = append(s.hashes, h)
	s.result.States++
	if 2*len(s.ptr) > len(s.table) {
		s.grow()
	}
	return true
}

func (s *searcher) grow() {
	s.table = make([]int32, 2*len(s.table))
	mask := uint64(len(s.table) - 1)
	for k, h := range s.hashes {
		j := h & mask
		for s.table[j] != 0 {
			j = (j + 1) & mask
		}
		s.table[j] = int32(k) + 1
	}
}

// hashState mixes the pointer and the registers of the first hashProbes
// probes; states equal there but not elsewhere share a hash and are told
// apart by the full comparison.
func hashState(regs []int64, p int32) uint64 {
	h := uint64(p) + 0x9E3779B97F4A7C15
	for c := 0; c < hashProbes; c++ {
		h = (h ^ uint64(regs[c])) * 0xBF58476D1CE4E5B9
		h ^= h >> 31
		h = (h ^ uint64(regs[NumProbes+c])) * 0x94D049BB133111EB
		h ^= h >> 29
	}
	return h
}

// solves checks state k: if v is the target on every probe, the program to k
// plus ANS is verified, and on success becomes the result.
func (s *searcher) solves(k int) bool {
	if !slices.Equal(s.regs(k)[:NumProbes], s.target[:]) {
		return false
	}
	return s.accept(s.programTo(k, ANS))
}

// solvesLast is solves for the uncommitted child of state parent by tok, in slot().
func (s *searcher) solvesLast(parent int, tok int32) bool {
	if !slices.Equal(s.regs(len(s.ptr))[:NumProbes], s.target[:]) {
		return false
	}
	return s.accept(s.programTo(parent, tok, ANS))
}

// programTo is the program reaching state k, followed by the tokens tail.
func (s *searcher) programTo(k int, tail ...int32) []int32 {
	var prog []int32
	for j := k; s.parent[j] >= 0; j = int(s.parent[j]) {
		prog = append(prog, s.token[j])
	}
	slices.Reverse(prog)
	return append(prog, tail...)
}

// accept verifies a program right on every probe; on success it is the result.
func (s *searcher) accept(prog []int32) bool {
	if !computesOps(s.e, prog, s.ops, verifyAllUpTo) {
		s.result.Rejected++
		return false
	}
	s.result.Program = prog
	return true
}

// Computes reports whether the program's first ANS (within MaxBudget tokens)
// yields e on every digit tuple (or, when there are more than verifyAllUpTo,
// on verifySamples tuples drawn from a fixed stream).
func Computes(e *Expr, prog []int32) bool { return computesOn(e, prog, verifyAllUpTo) }

// computesOn is Computes on every tuple when there are at most limit, else
// on min(limit, verifySamples) tuples from the fixed stream.
func computesOn(e *Expr, prog []int32, limit uint64) bool {
	return computesOps(e, prog, Ops[:], limit)
}

// computesOps is computesOn on the machine of the table ops.
func computesOps(e *Expr, prog []int32, ops []interp.Op, limit uint64) bool {
	space := tupleSpace(e.vars)
	var d [MaxVars]int32
	if space <= limit {
		for idx := uint64(0); idx < space; idx++ {
			tupleDigits(idx, e.vars, &d)
			if v, ok := answer(prog, ops, &d, e.vars); !ok || v != e.Eval(&d) {
				return false
			}
		}
		return true
	}
	for i := uint32(0); uint64(i) < min(limit, verifySamples); i++ {
		w := verifyKey.Block(0, i, 0, rng.PurposeEval)
		tupleDigits(below64(w[0], w[1], space), e.vars, &d)
		if v, ok := answer(prog, ops, &d, e.vars); !ok || v != e.Eval(&d) {
			return false
		}
	}
	return true
}

// answer runs prog on the digits and returns v at the first ANS within
// MaxBudget tokens (beyond them int64 could overflow).
func answer(prog []int32, ops []interp.Op, digits *[MaxVars]int32, n int32) (int64, bool) {
	var m Machine
	for _, tok := range prog[:min(len(prog), MaxBudget)] {
		op := OpIn(ops, tok)
		if op.Kind == interp.KindAnswer {
			return m.V, true
		}
		m.Apply(op, digits, n)
	}
	return 0, false
}

// FixedProgram looks for a fixed program (no branching) of at most maxLen
// tokens on the branching machine (BranchOps) that computes e: Search with
// NEG and SWAP among the tools. A branching level has none within its budget
// (TestObserveLevelsNeedObservations): an open-loop policy cannot solve it.
func FixedProgram(e *Expr, maxLen int) SearchResult {
	r, _ := newSearcherOps(e, BranchOps[:], nil, searchLimits{states: MaxSearchStates}).run(maxLen)
	return r
}

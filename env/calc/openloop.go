package calc

import (
	"errors"
	"fmt"
	"slices"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/rng"
)

// How well can a policy without observations do on a branching level? An
// open-loop policy writes one fixed token sequence per context it can tell
// apart. OpenLoop bounds two such policies on the branching machine, within
// a budget, over every digit tuple of the level:
//
//   - Fixed: the best single token sequence's share of tuples answered
//     correctly (what a policy that ignores the digits can reach);
//   - PerMultiset: the sum over the multisets of the digits of the best
//     sequence for that multiset's tuples, over all tuples (what a policy
//     whose first state is a bag of the digits, order lost, can reach).
//
// Both are exact (not sampled): a depth-first search over every token
// sequence within the budget, where two sequences that leave the same
// machines on every tuple are one (a state, kept by a 64-bit hash of all the
// tuples' registers and the pointer, with the most tokens it had left), so
// it finishes in seconds for four digits.

// OpenLoopBound is what OpenLoop finds.
type OpenLoopBound struct {
	Fixed       float64 // the best fixed sequence's share of correct tuples
	PerMultiset float64 // Σ over digit multisets of the best sequence's correct tuples, / tuples
	Best        []int32 // a best fixed sequence, ANS included
	States      int     // distinct states visited
}

// maxOpenLoopTuples is the most tuples OpenLoop enumerates (four digits).
const maxOpenLoopTuples = 10_000

// OpenLoop bounds open-loop policies on e within budget tokens (ANS
// included) on the branching machine, visiting at most maxStates distinct
// states; it refuses more than four digits and stops with an error at the cap.
func OpenLoop(e *Expr, budget, maxStates int) (OpenLoopBound, error) {
	space := tupleSpace(e.vars)
	if space > maxOpenLoopTuples {
		return OpenLoopBound{}, fmt.Errorf("%s shows %d digits; OpenLoop enumerates at most 4", e, e.vars)
	}
	if budget < 1 || budget > MaxBudget {
		return OpenLoopBound{}, fmt.Errorf("budget %d is not in 1..%d", budget, MaxBudget)
	}
	o := &openLoop{e: e, n: e.vars, N: int(space), maxStates: maxStates, seen: map[uint64]int8{}}
	o.digits = make([][MaxVars]int32, o.N)
	o.targets = make([]int64, o.N)
	o.multiset = make([]int32, o.N)
	msIndex := map[[MaxVars]int32]int32{}
	for idx := range o.N {
		tupleDigits(uint64(idx), e.vars, &o.digits[idx])
		o.targets[idx] = e.Eval(&o.digits[idx])
		key := o.digits[idx]
		slices.Sort(key[:e.vars])
		k, ok := msIndex[key]
		if !ok {
			k = int32(len(msIndex))
			msIndex[key] = k
		}
		o.multiset[idx] = k
	}
	o.cols = make([][]int64, e.vars)
	for k := range o.cols {
		o.cols[k] = make([]int64, o.N)
		for i := range o.N {
			o.cols[k][i] = int64(o.digits[i][k])
		}
	}
	o.keys = make([]uint64, 2*o.N)
	for i := range o.keys {
		w := verifyKey.Block(1, uint32(i), 0, rng.PurposeEval)
		o.keys[i] = (uint64(w[0])<<32 | uint64(w[1])) | 1
	}
	o.bestMS = make([]int32, len(msIndex))
	o.countMS = make([]int32, len(msIndex))
	for tok := int32(FirstTool); tok < BranchVocab; tok++ {
		if tok != ANS {
			o.tools = append(o.tools, tok)
		}
	}
	start := make([]int64, 2*o.N)
	o.prog = make([]int32, 0, budget)
	if err := o.visit(start, 0, budget-1); err != nil {
		return OpenLoopBound{States: o.states}, err
	}
	sum := 0
	for _, b := range o.bestMS {
		sum += int(b)
	}
	return OpenLoopBound{Fixed: float64(o.bestFixed) / float64(o.N), PerMultiset: float64(sum) / float64(o.N),
		Best: append(o.best, ANS), States: o.states}, nil
}

var errOpenLoopCap = errors.New("OpenLoop reached its state cap")

type openLoop struct {
	e         *Expr
	n         int32
	N         int
	digits    [][MaxVars]int32
	targets   []int64
	multiset  []int32
	tools     []int32
	cols      [][]int64 // cols[k][i]: digit k of tuple i
	keys      []uint64  // the state hash's random odd weights, one per register
	bestMS    []int32
	countMS   []int32
	bestFixed int
	best      []int32
	prog      []int32
	seen      map[uint64]int8
	states    int
	maxStates int
}

// visit scores answering now from the state regs (v then m per tuple; the
// pointer p), then tries every tool with left tokens before the ANS.
func (o *openLoop) visit(regs []int64, p int32, left int) error {
	o.states++
	if o.states > o.maxStates {
		return errOpenLoopCap
	}
	clear(o.countMS)
	correct := 0
	for i := range o.N {
		if regs[i] == o.targets[i] {
			correct++
			o.countMS[o.multiset[i]]++
		}
	}
	if correct > o.bestFixed || o.best == nil {
		o.bestFixed = correct
		o.best = slices.Clone(o.prog)
	}
	for k, c := range o.countMS {
		o.bestMS[k] = max(o.bestMS[k], c)
	}
	if left == 0 {
		return nil
	}
	child := make([]int64, 2*o.N)
	for _, tok := range o.tools {
		op := BranchOps[tok]
		if op.Src == interp.SrcOperand && p >= o.n {
			continue
		}
		np := o.apply(op, regs, p, child)
		h := o.hash(child, np)
		if l, ok := o.seen[h]; ok && int(l) >= left-1 {
			continue
		}
		o.seen[h] = int8(left - 1)
		o.prog = append(o.prog, tok)
		err := o.visit(child, np, left-1)
		o.prog = o.prog[:len(o.prog)-1]
		if err != nil {
			return err
		}
	}
	return nil
}

// apply is Machine.Apply on every tuple at once, column by column (the
// same semantics: TestOpenLoopApplyIsApply).
func (o *openLoop) apply(op interp.Op, regs []int64, p int32, child []int64) int32 {
	N := o.N
	v, m := regs[:N], regs[N:]
	cv, cm := child[:N], child[N:]
	copy(cv, v)
	copy(cm, m)
	var src []int64
	switch op.Src {
	case interp.SrcOperand:
		src = o.cols[p]
		p++
	case interp.SrcV:
		src = v
	case interp.SrcM:
		src = m
	}
	dst := cv
	if op.Dst == interp.RegM {
		dst = cm
	}
	switch op.Kind {
	case interp.KindSet:
		copy(dst, src)
	case interp.KindAdd:
		for i := range dst {
			dst[i] += src[i]
		}
	case interp.KindSub:
		for i := range dst {
			dst[i] -= src[i]
		}
	case interp.KindMul:
		for i := range dst {
			dst[i] *= src[i]
		}
	case interp.KindSubFrom:
		for i := range dst {
			dst[i] = src[i] - dst[i]
		}
	case interp.KindNeg:
		for i := range dst {
			dst[i] = -src[i]
		}
	case interp.KindSwap:
		copy(cv, m)
		copy(cm, v)
	}
	return p
}

// hash is a random linear combination of the registers (independent
// multiplies, which pipeline), then mixed with the pointer: two different
// states collide with probability about 2^-64 over the weights.
func (o *openLoop) hash(regs []int64, p int32) uint64 {
	var h0, h1, h2, h3 uint64
	k := o.keys
	i := 0
	for ; i+4 <= len(regs); i += 4 {
		h0 += uint64(regs[i]) * k[i]
		h1 += uint64(regs[i+1]) * k[i+1]
		h2 += uint64(regs[i+2]) * k[i+2]
		h3 += uint64(regs[i+3]) * k[i+3]
	}
	for ; i < len(regs); i++ {
		h0 += uint64(regs[i]) * k[i]
	}
	h := h0 + h1 + h2 + h3 + uint64(p)*0x9E3779B97F4A7C15
	h = (h ^ h>>31) * 0xBF58476D1CE4E5B9
	return h ^ h>>29
}

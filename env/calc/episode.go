package calc

import (
	"math/bits"

	"github.com/simdrl/simdrl/env/interp"
)

// Episode is a program's run between two tokens, so that an engine can step
// it token by token. Run and Trace step through it: there is one
// implementation of the scoring rules. Call Reset before the first Step.
type Episode struct {
	in     Instance
	ops    []interp.Op // the machine's table: Ops or BranchOps
	m      Machine
	held   uint32 // bit j: v has held Inner[j]
	o      Outcome
	done   bool
	prevP  int32 // the operand pointer before the last token (Trace)
	credit float64
}

// Reset starts an episode of in on the 19-token machine (Ops), rewarding
// partialCredit × the share of the inner values held (Run).
func (e *Episode) Reset(in *Instance, partialCredit float64) {
	e.ResetOps(in, partialCredit, Ops[:])
}

// ResetOps is Reset on the machine of the table ops (Ops[:] or
// BranchOps[:]); tokens outside it do nothing. ops is kept, not copied.
func (e *Episode) ResetOps(in *Instance, partialCredit float64, ops []interp.Op) {
	*e = Episode{in: *in, credit: partialCredit, ops: ops}
	if in.Budget <= 0 {
		e.done = true
	}
}

// Observation is the observation (Machine.Observe) of the machine after the
// last token: StartObservation before the first, the final machine's after
// the end.
func (e *Episode) Observation() int32 { return e.m.Observe() }

// Machine is the machine after the last token.
func (e *Episode) Machine() Machine { return e.m }

// Done reports whether the episode has ended: at its first ANS, or when the
// budget is spent.
func (e *Episode) Done() bool { return e.done }

// Truncated reports whether the budget cut the episode: it ended without
// an answer.
func (e *Episode) Truncated() bool { return e.done && !e.o.Answered }

// Outcome is the episode so far (final once Done).
func (e *Episode) Outcome() Outcome { return e.o }

// Step consumes one token and returns what it earned. The whole reward,
// 1[correct] plus the partial credit, lands at the ANS step: a program that
// does not answer within its budget earns nothing, so nothing is paid before
// the answer. Tokens after the end earn 0 and change nothing.
func (e *Episode) Step(tok int32) float64 {
	if e.done {
		return 0
	}
	in := &e.in
	e.o.Steps++
	op := OpIn(e.ops, tok)
	if op.Kind == interp.KindAnswer {
		e.done = true
		e.o.Answered, e.o.Answer = true, e.m.V
		e.o.Correct = e.m.V == in.Target
		e.o.InnerHeld = int32(bits.OnesCount32(e.held))
		return e.reward()
	}
	e.prevP = e.m.P
	e.m.Apply(op, &in.Digits, in.Vars)
	for j := int32(0); j < in.NInner; j++ {
		if e.m.V == in.Inner[j] {
			e.held |= 1 << j
		}
	}
	e.o.InnerHeld = int32(bits.OnesCount32(e.held))
	if e.o.Steps >= in.Budget {
		e.done = true
	}
	return 0
}

// reward is Run's reward of an answered episode, in Run's float64 order.
func (e *Episode) reward() float64 {
	r := 0.0
	if e.o.Correct {
		r = 1
	}
	// Partial credit only for a program that answers, as the reference's
	// shaped bonus: credit without an answer made holding the inner values
	// and never answering a resting place (docs/recipes.md, "The calc
	// recipe").
	if e.in.NInner > 0 {
		// float64(…) rounds the product before the sum: Go may fuse a*b+c
		// into one FMA on arm64; the CUDA twin does not.
		r += float64(e.credit * (float64(e.o.InnerHeld) / float64(e.in.NInner)))
	}
	e.o.Reward = r
	return r
}

// traceStep is the machine after the last token, for explanations.
func (e *Episode) traceStep(tok int32) TraceStep {
	if OpIn(e.ops, tok).Kind == interp.KindAnswer {
		return TraceStep{Token: tok, Operand: -1, Machine: e.m}
	}
	operand := int32(-1)
	if e.m.P != e.prevP {
		operand = e.in.Digits[e.prevP]
	}
	return TraceStep{Token: tok, Operand: operand, Machine: e.m}
}

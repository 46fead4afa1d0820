package calc

import (
	"fmt"

	"github.com/simdrl/simdrl/env/interp"
)

// Outcome is what running a program on an instance gives.
type Outcome struct {
	Reward    float64 // 1[Correct] + partialCredit × InnerHeld / NInner
	Correct   bool    // the first ANS answered the target
	Answered  bool    // an ANS came within the budget
	Answer    int64   // v at the first ANS (0 if none)
	Steps     int32   // tokens consumed, ANS included
	InnerHeld int32   // inner values v held after some token before the first ANS
}

// TraceStep is the machine after one token, for explanations.
type TraceStep struct {
	Token   int32
	Operand int32 // the context digit the token consumed, or -1
	Machine Machine
}

// Observation is the sign observation of the machine after the token.
func (t TraceStep) Observation() int32 { return t.Machine.Observe() }

// Name is the token's name, as in TokenName.
func (t TraceStep) Name() string { return TokenName(t.Token) }

func (t TraceStep) String() string {
	s := fmt.Sprintf("%-6s v=%d m=%d", t.Name(), t.Machine.V, t.Machine.M)
	if t.Operand >= 0 {
		s += fmt.Sprintf(" (operand %c=%d)", 'a'+t.Machine.P-1, t.Operand)
	}
	return s
}

// Run executes at most instance.Budget tokens of the program, stopping at the
// first ANS, and scores it:
//
//	Reward = 1[answer == target] + partialCredit × held / NInner
//
// where held counts the expression's inner subexpressions (every operator
// node except the whole expression: a·b and c·d in a·b+c·d) whose value v
// held after some token before the first ANS; a program that does not answer
// within the budget earns nothing. Each subexpression counts once, and two with equal values
// are both credited by one. A level without inner subexpressions (a·b) gives
// no partial credit. The reward is computed in float64 in exactly that order,
// base + partialCredit*(float64(held)/float64(NInner)), so a twin can match
// its bits. Tokens outside the vocabulary do nothing. It allocates nothing.
func Run(in Instance, program []int32, partialCredit float64) Outcome {
	return run(&in, program, partialCredit, Ops[:], nil)
}

// RunOps is Run on the machine of the table ops (BranchOps[:] for a
// branching task).
func RunOps(in Instance, program []int32, partialCredit float64, ops []interp.Op) Outcome {
	return run(&in, program, partialCredit, ops, nil)
}

// Trace is Run that also appends one TraceStep per consumed token to dst.
func Trace(in Instance, program []int32, partialCredit float64, dst []TraceStep) (Outcome, []TraceStep) {
	return TraceOps(in, program, partialCredit, Ops[:], dst)
}

// TraceOps is Trace on the machine of the table ops.
func TraceOps(in Instance, program []int32, partialCredit float64, ops []interp.Op, dst []TraceStep) (Outcome, []TraceStep) {
	o := run(&in, program, partialCredit, ops, &dst)
	return o, dst
}

// run steps an Episode through the program.
func run(in *Instance, program []int32, partialCredit float64, ops []interp.Op, trace *[]TraceStep) Outcome {
	var e Episode
	e.ResetOps(in, partialCredit, ops)
	for _, tok := range program {
		if e.Done() {
			break
		}
		e.Step(tok)
		if trace != nil {
			*trace = append(*trace, e.traceStep(tok))
		}
	}
	return e.Outcome()
}

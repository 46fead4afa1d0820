package task

import (
	"fmt"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/rng"
)

// CTX is the token that ends a context and is a program's first input, for
// every task that does not declare another (ContextEnder): the seed's and
// calc's token 10.
const CTX = 10

// ContextEnder is a task whose contexts end with a token of its own rather
// than CTX: a task with a small vocabulary (say 4 tokens) need not have a
// token 10.
type ContextEnder interface {
	Task
	// ContextEnd is the token that ends the task's contexts
	// (Instance.Context) and is its programs' first input (every rollout's,
	// gru.Workspace.Start); one of its tokens (the engines refuse the task
	// otherwise), usually one of its NotActions.
	ContextEnd() int32
}

// ContextEnd is the token that ends t's contexts and is its programs' first
// input: CTX unless t declares another (ContextEnder).
func ContextEnd(t Task) int32 {
	if c, ok := t.(ContextEnder); ok {
		return c.ContextEnd()
	}
	return CTX
}

// MaxDigits is the longest context an instance shows (its tokens, CTX not
// counted: the policy reads MaxDigits+1, gru.MaxContext); MaxInner the most
// inner values it carries for partial credit.
const (
	MaxDigits = 8
	MaxInner  = 16
)

// MaxShown is the longest context an instance may show instead of its
// digits (Instance.Shown: the expr task's expression, CTX not counted;
// gru.MaxContext is MaxShown+1).
const MaxShown = 24

// Task is an environment the engines train on. Its programs are played by
// its episodes, written as a step function (Stepwise), by its own batch Env
// (Stepper) or by its Score (Scorer); the functions Score and Explain derive
// a whole program's score and explanation by stepping it, unless the task
// has its own (Scorer, Explainer).
type Task interface {
	// Name is the task's name on the command line (-task).
	Name() string
	// Vocab is the number of tokens, the context end (ContextEnd: CTX by
	// default) included.
	Vocab() int
	// TokenName spells a token for people.
	TokenName(tok int32) string
	// NotActions are tokens the policy never writes (what only the context
	// holds); nil when every token is an action, as in the reference.
	NotActions() []int32
	// Answer is the token that ends a program; the tokens after it change
	// nothing. NoAnswer: none, the budget ends every program.
	Answer() int32
	// HoldsOut reports whether evaluations draw from tuples training never
	// sees (Split); without, both splits are the same draws.
	HoldsOut() bool
	// Levels is the curriculum, in order.
	Levels() []Level
	// Draw draws an instance of level from the counter-based stream: a pure
	// function of its arguments. split says which of the level's digit
	// tuples it may be (tasks without a split ignore it).
	Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split Split) Instance
}

// Interpreted is a task whose programs run on env/calc's machine from an op
// table: an engine with its own interpreter of the table scores them without
// the task's Go code (the CUDA kernels do, calc.cuh). Score must give what
// calc.RunOps gives with Ops and PartialCredit (Ops is calc.Ops, or
// calc.BranchOps for a branching curriculum).
type Interpreted interface {
	Scorer
	// Ops is the instruction table, one op per token (Vocab long).
	Ops() []interp.Op
	// PartialCredit is the weight of the inner values held (calc.Run).
	PartialCredit() float64
}

// Level is one step of a curriculum.
type Level struct {
	Name    string // e.g. "a*b+c*d", or "level 1"
	Context int    // digits shown
	Budget  int    // tokens scored per episode, ANS included
	// Shortest is the length of a shortest program that solves the level,
	// ANS included: a rollout of fewer steps can never solve it.
	Shortest int
}

// Split selects which of a level's digit tuples an instance may be: the
// training part (80 %) or the held-out part (20 %) that evaluations use.
type Split int

// An Itemized task may also have a Transfer split: items held out to
// measure transfer to what training never showed (the expr task's held-out
// pattern, or its largest size), evaluated only at the end, never used to
// stop or to weight the curriculum.
const (
	Training Split = iota
	HeldOut
	Transfer
)

func (s Split) String() string {
	switch s {
	case HeldOut:
		return "held-out"
	case Transfer:
		return "transfer"
	}
	return "training"
}

// Instance is one episode's input, self-contained: scoring needs nothing
// else (a GPU copies the struct as it is).
type Instance struct {
	Level  int32
	Vars   int32 // context tokens shown (the digits, for the seed and calc)
	Budget int32 // tokens scored, ANS included
	// Digits are the context tokens, Digits[:Vars]: any of the task's
	// tokens (Check); the seed's and calc's are digits, their operands. The
	// name and the fixed length stay because engines copy the struct as it
	// is (the CUDA kernels read it).
	Digits [MaxDigits]int32
	Target int64 // what a correct answer holds
	NInner int32
	Inner  [MaxInner]int64 // the expression's inner values (partial credit)
	// Item is the instance's item within its level and split, for a task
	// whose levels are sets of items (Itemized: the expr task's
	// expressions); 0 for any other.
	Item int32
	// Shown, when NShown > 0, is the context the policy reads instead of
	// the digits, Shown[:NShown] (any of the task's tokens): the expr task
	// shows its expression, and its digits stay the machine's operands,
	// which the policy never sees.
	NShown int32
	Shown  [MaxShown]int32
}

// Check refuses an instance that is not one of t's: a level t does not
// have, a context longer than MaxDigits, a context token outside t's
// vocabulary (or, for the seed and calc, whose machines read them as
// numbers, one that is not a digit), more inner values than it holds. Engines check the instances they
// are handed (GreedyPrograms) with it: the model would read outside its
// tables.
func Check(t Task, in *Instance) error {
	c := NewChecker(t)
	return c.check(in)
}

// check is Check with what it needs of the task read already.
func (c *Checker) check(in *Instance) error {
	switch {
	case in.Level < 0 || int(in.Level) >= c.levels:
		return fmt.Errorf("instance of level %d: the %s task has levels 0..%d", in.Level, c.name, c.levels-1)
	case in.Vars < 0 || in.Vars > MaxDigits:
		return fmt.Errorf("instance shows %d digits (0..%d)", in.Vars, MaxDigits)
	case in.NInner < 0 || in.NInner > MaxInner:
		return fmt.Errorf("instance has %d inner values (0..%d)", in.NInner, MaxInner)
	case in.NShown < 0 || in.NShown > MaxShown:
		return fmt.Errorf("instance shows %d context tokens (0..%d)", in.NShown, MaxShown)
	}
	for _, s := range in.Shown[:in.NShown] {
		if s < 0 || int(s) >= c.vocab {
			return fmt.Errorf("instance context token %d is not in the %s task's vocabulary (0..%d)", s, c.name, c.vocab-1)
		}
	}
	for _, d := range in.Digits[:in.Vars] {
		if c.numbers && (d < 0 || d >= CTX) {
			return fmt.Errorf("instance digit %d is not a digit (0..%d)", d, CTX-1)
		}
		if d < 0 || int(d) >= c.vocab {
			return fmt.Errorf("instance context token %d is not in the %s task's vocabulary (0..%d)", d, c.name, c.vocab-1)
		}
	}
	return nil
}

// readsNumbers reports whether t's machine reads the context tokens as the
// digits' values (the seed's and the calculator's operands, also in the CUDA
// kernels): their contexts are digits. Any other task's context may be any
// of its tokens.
func readsNumbers(t Task) bool {
	if IsSeed(t) {
		return true
	}
	_, ok := t.(Interpreted)
	return ok
}

// Context writes the policy's context, the shown tokens (Shown when NShown
// > 0, else the digits) then end (the task's ContextEnd), into dst (at least
// MaxShown+1 long) and returns its length.
func (in *Instance) Context(dst []int32, end int32) int {
	shown := in.Digits[:in.Vars]
	if in.NShown > 0 {
		shown = in.Shown[:in.NShown]
	}
	n := copy(dst, shown)
	dst[n] = end
	return n + 1
}

// Outcome is what a program earns.
type Outcome struct {
	Reward  float64
	Correct bool // the answer was the target: solve rates count only these
}

// Explanation is one program on one instance, token by token.
type Explanation struct {
	Level   int      `json:"level"`
	Name    string   `json:"level_name"`
	Context []int32  `json:"ctx"`
	Target  int64    `json:"target"`
	Note    string   `json:"note,omitempty"` // anything else worth saying about the instance
	Tokens  []string `json:"actions"`
	Trace   []Step   `json:"trace"` // the tokens run, up to the answer
	Reward  float64  `json:"reward"`
	Correct bool     `json:"correct"`
}

// Step is one token run and the machine after it.
type Step struct {
	Token string `json:"token"`
	State string `json:"state"`
}

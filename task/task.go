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

// MaxContext is the longest context an instance shows (Instance.Context,
// the context end not counted: the policy reads MaxContext+1 tokens,
// gru.MaxContext), room for the tape task's 32-leaf expressions (at most
// 4·32−5 = 123 tokens); DataWords the number of an instance's data words
// (Instance.Data), room for every built-in task's.
const (
	MaxContext = 128
	DataWords  = 32
)

// MaxLevels is the most levels a task may declare (Validate): the model
// holds an embedding per level, which every episode's first state reads
// through a product as wide as the levels, and an evaluation plays every
// level, so that an evaluation's cost grows with their square. The
// built-in tasks have at most 32 (calc's env/calc.MaxLevels, the tape's
// sizes).
const MaxLevels = 1024

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
	Context int    // the most context tokens shown (Instance.NContext), 0..MaxContext
	Budget  int    // tokens scored per episode, ANS included
	// Shortest is the length of a shortest program that solves the level,
	// ANS included: a rollout of fewer steps can never solve it.
	Shortest int
}

// LongestContext is the most context tokens any of t's levels shows
// (Level.Context): what a model that reads its context reads at most.
func LongestContext(t Task) int {
	n := 0
	for _, l := range t.Levels() {
		n = max(n, l.Context)
	}
	return n
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

// Instance is one episode's input, self-contained: playing it needs
// nothing else (engines copy the struct as it is, a GPU too).
type Instance struct {
	Level  int32
	Budget int32 // tokens scored, the answer included
	// Item is the instance's item within its level and split, for a task
	// whose levels are sets of items (Itemized: the expr task's
	// expressions); 0 for any other.
	Item int32
	// Context is what the policy reads, Context[:NContext], tokens of the
	// task's vocabulary (Check): the seed's and calc's digits, the expr
	// task's expression.
	NContext int32
	Context  [MaxContext]int32
	// Data is the task's own business, whatever its play needs besides the
	// context (operands, target, inner values, a packed tape): engines
	// copy it as it is and never read it, except through a machine that
	// the task declares (Interpreted, SeedMachine: env/interp.Operands).
	Data [DataWords]int64
}

// Check refuses an instance that is not one of t's: a level t does not
// have, a context longer than its level's (Level.Context), a context token outside t's
// vocabulary, or, for a task whose programs run on a machine engines
// interpret (Interpreted, SeedMachine), operands that machine cannot read
// (env/interp.Check). Engines check the instances they are handed
// (GreedyPrograms) with it: the model would read outside its tables.
func Check(t Task, in *Instance) error {
	c := NewChecker(t)
	return c.check(in)
}

// check is Check with what it needs of the task read already.
func (c *Checker) check(in *Instance) error {
	switch {
	case in.Level < 0 || int(in.Level) >= len(c.levels):
		return fmt.Errorf("instance of level %d: the %s task has levels 0..%d", in.Level, c.name, len(c.levels)-1)
	case in.NContext < 0 || in.NContext > MaxContext:
		return fmt.Errorf("instance shows %d context tokens (0..%d)", in.NContext, MaxContext)
	case int(in.NContext) > c.levels[in.Level].Context:
		// the engines size a reading model's steps by the levels' (gru.Config.Shown)
		lv := c.levels[in.Level]
		return fmt.Errorf("instance shows %d context tokens, more than its level %d (%s) declares (Level.Context %d)", in.NContext, in.Level, lv.Name, lv.Context)
	}
	for _, s := range in.Context[:in.NContext] {
		if s < 0 || int(s) >= c.vocab {
			return fmt.Errorf("instance context token %d is not in the %s task's vocabulary (0..%d)", s, c.name, c.vocab-1)
		}
	}
	if c.interpreted {
		return interp.Check(in.Data[:])
	}
	return nil
}

// interpreted reports whether t's programs run on a machine that engines
// interpret (Interpreted, SeedMachine), which reads its instances' data as
// env/interp.Operands (the CUDA kernels too).
func interpreted(t Task) bool {
	if IsSeed(t) {
		return true
	}
	_, ok := t.(Interpreted)
	return ok
}

// The interpreted machine's operands fit an instance's data.
var _ [DataWords - interp.DataWords]struct{}

// WriteContext writes the policy's context, Context[:NContext] then end
// (the task's ContextEnd), into dst (at least MaxContext+1 long) and returns
// its length.
func (in *Instance) WriteContext(dst []int32, end int32) int {
	n := copy(dst, in.Context[:in.NContext])
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
	Target  string   `json:"target,omitempty"` // what a correct answer holds, spelled by the task ("" when it does not say: an explanation derived by stepping)
	Note    string   `json:"note,omitempty"`   // anything else worth saying about the instance
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

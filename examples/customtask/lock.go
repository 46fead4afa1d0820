package customtask

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// LockName is the registered name of "open the combination lock", a task
// that needs observation: the code is hidden, and only the lock's answer to
// each digit entered (a click or a buzz) tells the policy what to enter next.
const LockName = "lock"

func init() {
	task.Register(LockName, func(spec string) (task.Task, error) {
		if spec != "" {
			return nil, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("the %s task takes no options, got %q", LockName, spec)}
		}
		return Lock{}, nil
	})
}

// Lock hides a code of n digits 0..3 (one level per n: 1, 2, 3). The policy
// enters digits; the lock clicks at a right one and waits for the code's
// next digit, buzzes at a wrong one and starts again from the code's first
// digit, and opens (paying 1) after the last. Its budget is exactly what
// the systematic search needs at worst: at the k-th digit, try 0, 1, 2, 3
// in turn, entering the k digits found before each try after the first
// (3(k+1)+1 tokens). A policy that tries a digit twice, forgets a digit it
// found, or ignores a buzz, runs out: it must observe, and remember.
type Lock struct{}

// The lock's symbols, and the token (4) that starts every program, its
// context end: the lock shows no context.
const (
	lockSymbols = 4
	lockStart   = lockSymbols
)

// lockLengths are the levels' code lengths.
var lockLengths = []int{1, 2, 3}

// The observations: the start, then the lock's answer to a digit.
var lockObservations = []string{"start", "click", "buzz", "open"}

const (
	lockClick = 1
	lockBuzz  = 2
	lockOpen  = 3
)

func (Lock) Name() string                     { return LockName }
func (Lock) Vocab() int                       { return lockSymbols + 1 }
func (Lock) NotActions() []int32              { return []int32{lockStart} }
func (Lock) ContextEnd() int32                { return lockStart }
func (Lock) Answer() int32                    { return task.NoAnswer } // the lock opening (or the budget) ends a program
func (Lock) HoldsOut() bool                   { return false }
func (Lock) Observations() int                { return len(lockObservations) }
func (Lock) ObservationName(obs int32) string { return lockObservations[obs] }
func (Lock) NewGame() task.Game               { return &lockGame{} }

func (Lock) TokenName(tok int32) string {
	if tok == lockStart {
		return "start"
	}
	return fmt.Sprint(tok)
}

func (Lock) Levels() []task.Level {
	ls := make([]task.Level, len(lockLengths))
	for i, n := range lockLengths {
		ls[i] = task.Level{Name: fmt.Sprintf("lock %d", n), Budget: lockBudget(n), Shortest: n}
	}
	return ls
}

// lockBudget is the systematic search's worst case on a code of n digits:
// at digit k, lockSymbols−1 wrong tries of k+1 tokens each, then the right one.
func lockBudget(n int) int {
	b := 0
	for k := range n {
		b += (lockSymbols-1)*(k+1) + 1
	}
	return b
}

// Draw hides the level's code in the instance's data, digit k from word k
// of the stream's block; its context is empty.
func (Lock) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	n := lockLengths[level]
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(level), Budget: int32(lockBudget(n))}
	for k := range n {
		in.Data[k] = int64(r[k] % lockSymbols)
	}
	in.Data[3] = int64(n)
	return in
}

// lockGame is one episode: the code, its length and the digits entered
// right since the last buzz.
type lockGame struct {
	code    [3]int64
	n, open int
}

func (g *lockGame) Reset(in *task.Instance) int32 {
	g.n, g.open = int(in.Data[3]), 0
	copy(g.code[:], in.Data[:3])
	return 0
}

func (g *lockGame) Correct() bool { return g.open == g.n }

func (g *lockGame) Step(tok int32) (obs int32, reward float64, done bool) {
	if int64(tok) != g.code[g.open] {
		g.open = 0
		return lockBuzz, 0, false
	}
	g.open++
	if g.open == g.n {
		return lockOpen, 1, true
	}
	return lockClick, 0, false
}

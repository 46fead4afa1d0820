package customtask

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// ReverseName is the registered name of "reverse the digits", a task that
// needs memory: the policy reads 2, 3 or 4 digits (its context, one level
// per length) and must write them back last first, so it has to hold the
// whole context in its state before it writes a token.
const ReverseName = "reverse"

func init() {
	task.Register(ReverseName, func(spec string) (task.Task, error) {
		if spec != "" {
			return nil, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("the %s task takes no options, got %q", ReverseName, spec)}
		}
		return Reverse{}, nil
	})
}

// Reverse shows n digits (tokens 0..9; token 10 is task.CTX, which ends
// the context) and pays 1 when the program writes them reversed; a wrong
// digit ends the episode with nothing.
type Reverse struct{}

// reverseLengths are the levels' lengths.
var reverseLengths = []int{2, 3, 4}

func (Reverse) Name() string               { return ReverseName }
func (Reverse) Vocab() int                 { return task.CTX + 1 }
func (Reverse) TokenName(tok int32) string { return fmt.Sprint(tok) }
func (Reverse) NotActions() []int32        { return []int32{task.CTX} }
func (Reverse) Answer() int32              { return task.NoAnswer } // the budget (n digits) ends a program
func (Reverse) HoldsOut() bool             { return false }
func (Reverse) NewGame() task.Game         { return &reverseGame{} }

// OrderSensitive reports true: the digits' order is the task; a context taken as a bag
// loses it (the untuned recipe reads it token by token).
func (Reverse) OrderSensitive() bool { return true }

func (Reverse) Levels() []task.Level {
	ls := make([]task.Level, len(reverseLengths))
	for i, n := range reverseLengths {
		ls[i] = task.Level{Name: fmt.Sprintf("reverse %d", n), Context: n, Budget: n, Shortest: n}
	}
	return ls
}

// Draw shows the level's n digits, word k of the stream's block for digit k.
func (Reverse) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	n := reverseLengths[level]
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(level), NContext: int32(n), Budget: int32(n)}
	for k := range n {
		in.Context[k] = int32(r[k] % 10)
	}
	return in
}

// reverseGame is one episode: the digits to write, last first, and how
// many are written.
type reverseGame struct {
	want    [4]int32
	n, done int
}

func (g *reverseGame) Reset(in *task.Instance) int32 {
	g.n, g.done = int(in.NContext), 0
	for k := range g.n {
		g.want[k] = in.Context[g.n-1-k]
	}
	return task.NoObservation
}

func (g *reverseGame) Correct() bool { return g.done == g.n }

func (g *reverseGame) Step(tok int32) (obs int32, reward float64, done bool) {
	if tok != g.want[g.done] {
		return task.NoObservation, 0, true
	}
	g.done++
	if g.done == g.n {
		return task.NoObservation, 1, true
	}
	return task.NoObservation, 0, false
}

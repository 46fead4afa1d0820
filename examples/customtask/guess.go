package customtask

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// GuessName is the registered name of "guess the hidden digit", a
// closed-loop task written once, as a step function (task.Stepwise): the
// engines step it, and task.Score and task.Explain derive from the steps.
const GuessName = "guess"

func init() {
	task.Register(GuessName, func(spec string) (task.Task, error) {
		if spec != "" {
			return nil, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("the %s task takes no options, got %q", GuessName, spec)}
		}
		return Guess{}, nil
	})
}

// Guess hides a digit; the policy writes guesses (the digits, tokens 0..9;
// token 10 is task.CTX) and observes after each whether the hidden digit is
// lower, higher or equal. Equal pays 1 and ends the episode; four guesses
// are enough for a binary search.
type Guess struct{}

// The observations: the start, then what a guess tells.
var guessObservations = []string{"start", "lower", "higher", "equal"}

func (Guess) Name() string                     { return GuessName }
func (Guess) Vocab() int                       { return task.CTX + 1 }
func (Guess) TokenName(tok int32) string       { return fmt.Sprint(tok) }
func (Guess) NotActions() []int32              { return []int32{task.CTX} }
func (Guess) Answer() int32                    { return task.NoAnswer }
func (Guess) HoldsOut() bool                   { return false }
func (Guess) Levels() []task.Level             { return []task.Level{{Name: "guess", Budget: 4, Shortest: 1}} }
func (Guess) Observations() int                { return len(guessObservations) }
func (Guess) ObservationName(obs int32) string { return guessObservations[obs] }
func (Guess) NewGame() task.Game               { return &guessGame{} }

// Draw hides a digit in the instance's data; its context is empty.
func (Guess) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	return task.Instance{Level: int32(level), Budget: 4, Data: [task.DataWords]int64{int64(key.Block(round, episode, 0, purpose)[0] % 10)}}
}

// guessGame is one episode: the hidden digit, and whether it was guessed.
type guessGame struct {
	hidden int64
	won    bool
}

func (g *guessGame) Reset(in *task.Instance) int32 { g.hidden, g.won = in.Data[0], false; return 0 }
func (g *guessGame) Correct() bool                 { return g.won }

func (g *guessGame) Step(tok int32) (obs int32, reward float64, done bool) {
	switch {
	case int64(tok) == g.hidden:
		g.won = true
		return 3, 1, true
	case int64(tok) > g.hidden:
		return 1, 0, false
	}
	return 2, 0, false
}

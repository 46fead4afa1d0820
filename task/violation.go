package task

import (
	"fmt"
	"math"
	"runtime/debug"
	"slices"
	"strings"
)

// NoAnswer is the Answer of a task without an answer token, whose programs
// the budget alone ends.
const NoAnswer int32 = -1

// Validate refuses a task that can never train: one with no levels or
// more than MaxLevels, a negative item count (Itemized), a level whose budget is not positive or whose context (Level.Context) is
// not in 0..MaxContext, an answer token (but NoAnswer)
// outside its vocabulary or among the tokens the policy never writes
// (NotActions), one that neither steps nor scores its programs (Stepwise,
// Stepper, Scorer), a negative GameBytes (GameSized). (The engines check its context end, enginekit.NewLayout.) Open and the engines (through
// trainer.Config.ValidateFor) call it, so that a user's task is refused
// when it is opened, not trained to nothing. A panic in t's code meanwhile
// is returned as a *PanicError (Guard).
func Validate(t Task) error {
	return Guard(NameOf(t), "checked", func() error { return validate(t) })
}

// validate is Validate, unguarded.
func validate(t Task) error {
	name, vocab := t.Name(), t.Vocab()
	levels := t.Levels()
	if !validName(name) {
		return violation("task name %q: %s", name, NameRule)
	}
	if vocab < 1 {
		return violation("the %s task has a vocabulary of %d tokens", name, vocab)
	}
	if len(levels) == 0 {
		return violation("the %s task has no levels", name)
	}
	if len(levels) > MaxLevels {
		return violation("the %s task has %d levels: at most %d (task.MaxLevels)", name, len(levels), MaxLevels)
	}
	it, itemized := t.(Itemized)
	for i, l := range levels {
		if itemized {
			for _, sp := range []Split{Training, HeldOut, Transfer} {
				if n := it.Items(i, sp); n < 0 {
					return violation("the %s task's level %d (%s) has %d %s items: item counts must be ≥ 0", name, i, l.Name, n, sp)
				}
			}
		}
		if l.Budget < 1 {
			return violation("the %s task's level %d (%s) has a budget of %d tokens: it must be at least 1", name, i, l.Name, l.Budget)
		}
		if l.Context < 0 || l.Context > MaxContext {
			return violation("the %s task's level %d (%s) shows %d context tokens: it must be 0..%d (task.MaxContext)", name, i, l.Name, l.Context, MaxContext)
		}
	}
	a := t.Answer()
	switch {
	case a == NoAnswer:
	case a < 0 || int(a) >= vocab:
		return violation("the %s task's answer token %d is outside its vocabulary (0..%d)", name, a, vocab-1)
	case slices.Contains(t.NotActions(), a):
		return violation("the %s task's answer token %d (%s) is among its non-actions: no program could end", name, a, t.TokenName(a))
	}
	switch t.(type) {
	case Stepper, Stepwise, Scorer:
	default:
		return unplayable(t)
	}
	if g, ok := t.(GameSized); ok && g.GameBytes() < 0 {
		return violation("the %s task's games hold %d bytes (GameBytes): it must be ≥ 0", name, g.GameBytes())
	}
	return nil
}

// violation is a ViolationError of format and a.
func violation(format string, a ...any) error {
	return &ViolationError{Err: fmt.Errorf(format, a...)}
}

// Checker checks what a task hands an engine during training, with what it
// needs of the task read once: every check is a comparison, and it
// allocates nothing until it finds a violation. Its errors name the task
// and the level.
type Checker struct {
	name         string
	levels       []Level
	vocab        int
	interpreted  bool // its data are env/interp.Operands (interpreted)
	observations int
}

// NewChecker is t's Checker.
func NewChecker(t Task) Checker {
	return Checker{name: t.Name(), levels: t.Levels(), vocab: t.Vocab(), interpreted: interpreted(t), observations: Observations(t)}
}

// Drawn refuses an instance the task drew (Draw, DrawItem) for level that
// is not one of its own (Check) or has no budget.
func (c *Checker) Drawn(in *Instance, level int) error {
	err := c.check(in)
	if err == nil && in.Budget < 1 {
		err = fmt.Errorf("instance has a budget of %d tokens (at least 1)", in.Budget)
	}
	if err != nil {
		return fmt.Errorf("the %s task drew a bad instance of level %d: %w", c.name, level, err)
	}
	return nil
}

// Reward refuses a reward (or a return) that is not finite, earned on an
// instance of level, or beyond float32's range, in which the engines keep
// returns and train (it would be +Inf or −Inf there): the message gives the
// value paid, not what float32 makes of it.
func (c *Checker) Reward(r float64, level int32) error {
	switch {
	case math.IsNaN(r) || math.IsInf(r, 0):
		return fmt.Errorf("the %s task paid a reward of %v on level %d: rewards must be finite", c.name, r, level)
	case math.Abs(r) > math.MaxFloat32:
		return fmt.Errorf("the %s task paid a return of %v on level %d: beyond float32's range (±%.3g), in which the engines train, it would be infinite", c.name, r, level, math.MaxFloat32)
	}
	return nil
}

// Observation refuses an observation token outside the task's observation
// vocabulary (an Env's Reset or Step), which the model would read outside
// its input table.
func (c *Checker) Observation(o int32) error {
	if o < 0 || int(o) >= c.observations {
		return fmt.Errorf("the %s task's Env returned observation %d, outside its %d observation tokens", c.name, o, c.observations)
	}
	return nil
}

// Panic is the error of a panic recovered while an engine ran the task's
// code (Draw, Reset, Step, Score, …), the panic's value in it.
func (c *Checker) Panic(v any) error {
	if err, ok := v.(*ViolationError); ok {
		return err
	}
	return &PanicError{Task: c.name, Value: v, Stack: debug.Stack()}
}

// PanicError is a panic recovered while an engine or the trainer ran a
// task, most likely in the task's own code: returned as an error so that a
// bug in a task never kills the program that embeds the engine.
type PanicError struct {
	Task string
	// While says what was being done with the task when it panicked
	// (Guard: "opened"); "" while an engine or the trainer ran it.
	While string
	Value any    // what was panicked with
	Stack []byte // the goroutine's stack where it was recovered, the panic's frames in it
}

// Error is one line: a value of several lines is joined with "; ".
func (e *PanicError) Error() string {
	v := strings.ReplaceAll(fmt.Sprint(e.Value), "\n", "; ")
	if e.While != "" {
		return fmt.Sprintf("the %s task panicked while it was %s: %s", e.Task, e.While, v)
	}
	return fmt.Sprintf("panic while running the %s task: %s", e.Task, v)
}

// ViolationError is a task's contract violation: Validate's errors, and
// one found where returning an error is not possible (deep in a rollout
// step), which the engine panics with and recovers where the task's code
// was called, as an error (Checker.Panic).
type ViolationError struct{ Err error }

func (e *ViolationError) Error() string { return e.Err.Error() }
func (e *ViolationError) Unwrap() error { return e.Err }

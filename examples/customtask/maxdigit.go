// Package customtask is four tasks defined outside simdrl's module: "the
// larger of two digits" (MaxDigit, which scores whole programs itself),
// "guess the hidden digit" (Guess, closed-loop, written once as a step
// function), and two that the untuned recipe trains with no setting
// changed (docs/tasks.md, "Tuning a new task"): "reverse the digits"
// (Reverse, which needs memory) and "open the combination lock" (Lock,
// which needs observation). It shows what a task needs (task.Task), how it is made
// available by name (task.Register, so that cpu.New, checkpoints and their
// resumption find it), that the CPU engine trains it like its own, and that
// a main of a few lines (cmd/maxdigit, cmd/guess) gets simdrl's whole
// command line for it (cli.Main).
package customtask

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// Name is the task's registered name (trainer.Config.Task).
const Name = "maxdigit"

// The vocabulary: the digits 0..9, then CTX (token 10), which ends the
// contexts of every task that declares no other end (task.ContextEnder) and
// is its programs' first input; ANS ends a program.
const (
	ANS   = 11
	vocab = 12
)

func init() { task.Register(Name, Open) }

// Open is the task for a spec; it has no options, so only "" opens.
func Open(spec string) (task.Task, error) {
	if spec != "" {
		return nil, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("the %s task takes no options, got %q", Name, spec)}
	}
	return MaxDigit{}, nil
}

// MaxDigit shows two digits a, b; a program writes one digit then ANS, and
// is correct when the last digit written before ANS is max(a, b).
type MaxDigit struct{}

var level = task.Level{Name: "max(a,b)", Context: 2, Budget: 2, Shortest: 2}

func (MaxDigit) Name() string         { return Name }
func (MaxDigit) Vocab() int           { return vocab }
func (MaxDigit) NotActions() []int32  { return []int32{task.CTX} } // the policy writes digits and ANS
func (MaxDigit) Answer() int32        { return ANS }
func (MaxDigit) HoldsOut() bool       { return false } // 100 instances: evaluations see them all
func (MaxDigit) Levels() []task.Level { return []task.Level{level} }

func (MaxDigit) TokenName(tok int32) string {
	switch {
	case tok >= 0 && tok < 10:
		return fmt.Sprint(tok)
	case tok == task.CTX:
		return "CTX"
	case tok == ANS:
		return "ANS"
	}
	return fmt.Sprintf("?%d", tok)
}

// target is the data word (task.Instance.Data, the task's own business)
// that holds the answer.
const target = 0

// Draw is a pure function of the counter-based stream's position: the
// context shows the two digits, the data hold their larger.
func (MaxDigit) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(lv), NContext: 2, Budget: int32(level.Budget)}
	in.Context[0], in.Context[1] = int32(r[0]%10), int32(r[1]%10)
	in.Data[target] = int64(max(in.Context[0], in.Context[1]))
	return in
}

// answer is the last digit written before the first ANS within the budget
// (-1: none, or no ANS).
func answer(in *task.Instance, program []int32) int64 {
	last := int64(-1)
	for i, tok := range program {
		if i >= int(in.Budget) {
			break
		}
		switch {
		case tok == ANS:
			return last
		case tok >= 0 && tok < 10:
			last = int64(tok)
		}
	}
	return -1
}

// Score rewards a correct answer with 1; it allocates nothing.
func (MaxDigit) Score(in *task.Instance, program []int32) task.Outcome {
	if answer(in, program) == in.Data[target] {
		return task.Outcome{Reward: 1, Correct: true}
	}
	return task.Outcome{}
}

func (t MaxDigit) Explain(in *task.Instance, program []int32) task.Explanation {
	o := t.Score(in, program)
	ex := task.Explanation{Level: int(in.Level), Name: level.Name, Context: append([]int32(nil), in.Context[:in.NContext]...),
		Target: fmt.Sprint(in.Data[target]), Reward: o.Reward, Correct: o.Correct}
	for i, tok := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(tok))
		if i < int(in.Budget) {
			ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(tok), State: fmt.Sprintf("answer=%d", answer(in, program[:i+1]))})
		}
		if tok == ANS {
			break
		}
	}
	return ex
}

package tape

// Episode is one episode on the machine: a tape, its target and its budget
// of steps, stepped a tool at a time. It ends at its first ANS, valid or
// not (the task's answer token ends every program: an invalid ANS answers
// nothing), or at its budget's last step, and pays its whole reward there: 1 for answering the
// target, plus credit × the share of the expression's operators applied
// correctly (APPLY combining exactly that operator's two subtrees). Steps
// after the end change nothing and earn 0. It allocates nothing.
type Episode struct {
	m         Machine
	target    int64
	budget    int
	steps     int
	ops       int // the expression's operators (leaves − 1)
	credit    float64
	done      bool
	truncated bool // ended by the budget, not by ANS
	reward    float64
}

// Reset starts the episode on tape (a well-formed expression) with its
// target and budget, paying credit per share of operators and functions
// applied correctly.
func (e *Episode) Reset(tape []Cell, target int64, budget int, credit float64) {
	e.m.Reset(tape)
	ops := 0
	for _, c := range e.m.Tape() {
		if c.IsOperator() || c.IsFunction() {
			ops++
		}
	}
	e.target, e.budget, e.steps, e.ops, e.credit = target, budget, 0, ops, credit
	e.done, e.truncated, e.reward = budget <= 0, budget <= 0, 0
}

// Step runs tool t and returns what the step earns: the reward at the end,
// 0 before and after.
func (e *Episode) Step(t Tool) float64 {
	if e.done {
		return 0
	}
	e.m.Step(t)
	e.steps++
	if t != ANS && e.steps < e.budget {
		return 0
	}
	e.done, e.truncated = true, t != ANS
	e.reward = 0
	if e.Correct() {
		e.reward = 1
	}
	if e.ops > 0 && e.credit != 0 {
		e.reward += e.credit * float64(e.m.Applied) / float64(e.ops)
	}
	return e.reward
}

// Done reports whether the episode has ended.
func (e *Episode) Done() bool { return e.done }

// Truncated reports whether the budget cut the episode: it ended on a tool
// other than ANS.
func (e *Episode) Truncated() bool { return e.truncated }

// Correct reports whether the episode answered its target.
func (e *Episode) Correct() bool { return e.m.Answered && e.m.Value == e.target }

// Reward is what the episode earned (0 until it ends).
func (e *Episode) Reward() float64 { return e.reward }

// Observe is the machine's observation (Machine.Observe).
func (e *Episode) Observe() int32 { return e.m.Observe() }

// SetVariant makes the episode's machine v (Machine.Variant); Reset keeps
// it.
func (e *Episode) SetVariant(v Variant) { e.m.Variant = v }

// Machine is the episode's machine (read only).
func (e *Episode) Machine() *Machine { return &e.m }

package task

// NoObservation is the observation of a task that observes nothing
// (Env.Observations() == 0): today's tasks are open-loop, the policy's next
// input is its own action. A task with observations writes tokens
// 0..Observations()-1 instead.
const NoObservation int32 = -1

// Env steps a batch of a task's episodes, one row each, in buffers the
// caller owns (PufferLib's C envs; Gymnasium's reset/step): per chunk, Reset
// each row from its instance, then Step all rows with their actions once per
// policy step. After construction it allocates nothing.
//
// Reward lands where the task pays it; for the seed and calc, at the answer
// step (the whole reward: 1[correct] plus the shaped bonus or the partial
// credit), and nothing at any other step. Done is set at the step that ends
// the episode (its answer, or its budget's last token) and at every step
// after it, which earns 0 and changes nothing. So an episode's return,
// Σ_t reward_t, is its Score, and its return-to-go is that return up to the
// end, 0 after.
type Env interface {
	// Rows is the most rows the Env holds.
	Rows() int
	// Observations is the size of the observation vocabulary: 0 when the
	// task observes nothing and every Obs is NoObservation.
	Observations() int
	// Reset starts row's episode on in (copied: in may be reused) and
	// returns the observation its first input carries (with the task's
	// context end): NoObservation when the task observes nothing.
	Reset(row int, in *Instance) int32
	// Step applies actions[r] to row r for every r < len(actions) and
	// writes each row's observation, reward and done flag into out.
	Step(actions []int32, out Transition)
	// Correct reports whether row's episode has ended with the target
	// answered (solve rates count only these).
	Correct(row int) bool
}

// Transition is what one Step writes, one entry per row: the caller's
// buffers, at least len(actions) long.
type Transition struct {
	Obs    []int32   // the observation token the row's policy sees next
	Reward []float64 // what the step earned
	Done   []bool    // the episode has ended (at this step or before)
	// Truncated, read at the step that ended the episode, says it was cut
	// by its budget rather than ended by the task (truncation.go); nil
	// when the caller does not read it.
	Truncated []bool
}

// Stepper is a task that steps its own batch of episodes. Package task's
// tasks are; a task written as a step function is stepped through its
// games (Stepwise), and any other by scoring (Scorer), by NewEnv.
type Stepper interface {
	Task
	// NewEnv allocates an Env of rows rows.
	NewEnv(rows int) Env
}

// NewEnv is t's Env of rows rows: its own when t is a Stepper, else one of
// t's games per row when t is Stepwise, else one that keeps each row's
// program and scores it with t's Score at its end (the answer, or the
// budget's last token), paying the reward there. A task that is none of
// these breaks its contract (Validate refuses it): NewEnv panics with the
// ViolationError.
func NewEnv(t Task, rows int) Env {
	switch s := t.(type) {
	case Stepper:
		return s.NewEnv(rows)
	case Stepwise:
		return stepwiseEnv(s, rows) // mask.go: a Masker when its games are LegalGames
	case Scorer:
		return newScoreEnv(s, rows)
	}
	panic(unplayable(t))
}

// unplayable is the violation of a task that neither scores nor steps its
// programs.
func unplayable(t Task) error {
	return violation("the %s task can neither score nor step a program: it must implement task.Stepwise, task.Stepper or task.Scorer", t.Name())
}

// scoreEnv steps any Scorer by scoring: equal to the task's own stepping
// when its contract holds (the tokens after the answer and past the budget
// change nothing).
type scoreEnv struct {
	t       Scorer
	answer  int32
	ins     []Instance
	program []int32 // rows×width: each row's tokens so far
	width   int     // the largest level budget
	steps   []int32
	done    []bool
	trunc   []bool // ended at the budget without the answer
	correct []bool
}

func newScoreEnv(t Scorer, rows int) *scoreEnv {
	width := 0
	for _, l := range t.Levels() {
		width = max(width, l.Budget)
	}
	return &scoreEnv{t: t, answer: t.Answer(), ins: make([]Instance, rows), program: make([]int32, rows*width),
		steps: make([]int32, rows), width: width, done: make([]bool, rows), trunc: make([]bool, rows), correct: make([]bool, rows)}
}

func (e *scoreEnv) Rows() int         { return len(e.ins) }
func (e *scoreEnv) Observations() int { return 0 }
func (e *scoreEnv) Correct(row int) bool {
	return e.correct[row]
}

func (e *scoreEnv) Reset(row int, in *Instance) int32 {
	e.ins[row] = *in
	e.steps[row] = 0
	e.done[row] = in.Budget <= 0
	e.trunc[row] = e.done[row]
	e.correct[row] = false
	return NoObservation
}

func (e *scoreEnv) Step(actions []int32, out Transition) {
	for r, a := range actions {
		out.Obs[r], out.Reward[r] = NoObservation, 0
		if !e.done[r] {
			in := &e.ins[r]
			k := e.steps[r]
			if int(k) < e.width { // a budget beyond every level's is clipped to the widest
				e.program[r*e.width+int(k)] = a
			}
			e.steps[r]++
			if a == e.answer || e.steps[r] >= in.Budget || int(e.steps[r]) >= e.width {
				o := e.t.Score(in, e.program[r*e.width:r*e.width+min(int(e.steps[r]), e.width)])
				out.Reward[r] = o.Reward
				e.correct[r] = o.Correct
				e.done[r] = true
				e.trunc[r] = a != e.answer
			}
		}
		out.Done[r] = e.done[r]
		if out.Truncated != nil {
			out.Truncated[r] = e.trunc[r]
		}
	}
}

func (e *scoreEnv) ReportsTruncation() bool { return true }

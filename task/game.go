package task

// Game is one episode of a task written as a step function (Stepwise):
// Reset starts it on an instance, Step applies one token of the program.
// The engines step a batch of them (NewEnv), and Score and Explain step one,
// so a task written this way writes its rules once.
type Game interface {
	// Reset starts the episode on in (in may be reused after it returns)
	// and returns the observation the program's first input carries:
	// NoObservation when the task observes nothing (not an Observer).
	Reset(in *Instance) (obs int32)
	// Step applies tok and returns the observation the next input carries,
	// what the step earned, and whether the episode has ended (its
	// answer). It is never called after done; the Env ends the episode at
	// the instance's budget itself.
	Step(tok int32) (obs int32, reward float64, done bool)
	// Correct reports whether the episode has ended with the target
	// answered (solve rates count only these).
	Correct() bool
}

// Stepwise is a task written as a step function: it need not implement
// Scorer, Explainer or Stepper, which are derived by stepping its games
// (Score, Explain, NewEnv).
type Stepwise interface {
	Task
	// NewGame allocates an episode; an Env allocates one per row once.
	NewGame() Game
}

// GameSized is a Stepwise task whose games hold memory that grows with a
// setting (the countdown tasks' no-revisit set grows with the step
// budget): the engines' memory estimates count GameBytes for every game
// they hold, one per row of each Env, so that a chunk or an evaluation
// batch too large for the machine is refused before it is allocated.
type GameSized interface {
	Stepwise
	// GameBytes bounds the bytes one game holds after any episode.
	GameBytes() int
}

// GameBytes is what the memory estimates count for one of t's games beyond
// its row's instance: GameSized's bound, or 0.
func GameBytes(t Task) float64 {
	if g, ok := t.(GameSized); ok {
		return float64(g.GameBytes())
	}
	return 0
}

// gameEnv steps a Game per row, allocation-free after construction.
// A row's episode ends when it says so or at its budget's last token; past
// its end it is not stepped: it earns 0 and keeps its last observation.
type gameEnv struct {
	eps          []Game
	obs          []int32
	left         []int32 // steps left in the budget
	done         []bool
	trunc        []bool // ended at the budget, not by its game
	observations int
}

func newGameEnv(t Stepwise, rows int) *gameEnv {
	e := &gameEnv{eps: make([]Game, rows), obs: make([]int32, rows), left: make([]int32, rows), done: make([]bool, rows),
		trunc: make([]bool, rows), observations: Observations(t)}
	for r := range e.eps {
		e.eps[r] = t.NewGame()
	}
	return e
}

func (e *gameEnv) Rows() int            { return len(e.eps) }
func (e *gameEnv) Observations() int    { return e.observations }
func (e *gameEnv) Correct(row int) bool { return e.eps[row].Correct() }

func (e *gameEnv) Reset(row int, in *Instance) int32 {
	e.obs[row] = e.observation(e.eps[row].Reset(in))
	e.left[row] = in.Budget
	e.done[row] = in.Budget <= 0
	e.trunc[row] = e.done[row]
	return e.obs[row]
}

func (e *gameEnv) Step(actions []int32, out Transition) {
	for r, a := range actions {
		reward := 0.0
		if !e.done[r] {
			var obs int32
			var done bool
			obs, reward, done = e.eps[r].Step(a)
			e.obs[r] = e.observation(obs)
			e.left[r]--
			if !done && e.left[r] <= 0 {
				e.trunc[r] = true
				reward += e.endBudget(r)
			}
			e.done[r] = done || e.left[r] <= 0
		}
		out.Obs[r], out.Reward[r], out.Done[r] = e.obs[r], reward, e.done[r]
		if out.Truncated != nil {
			out.Truncated[r] = e.trunc[r]
		}
	}
}

func (e *gameEnv) ReportsTruncation() bool { return true }

// endBudget is what row's game pays when its budget ends (BudgetEnder), 0
// for a game that does not listen.
func (e *gameEnv) endBudget(r int) float64 {
	if b, ok := e.eps[r].(BudgetEnder); ok {
		return b.EndBudget()
	}
	return 0
}

// observation is obs, or NoObservation for a task that observes nothing
// (whatever its games return).
func (e *gameEnv) observation(obs int32) int32 {
	if e.observations == 0 {
		return NoObservation
	}
	return obs
}

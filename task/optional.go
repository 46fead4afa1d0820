package task

// Optional interfaces: what a task may declare beyond Task, so that nothing
// below the command asks for a task by its name.

// ReferenceSchedule is implemented by a task that trains on the recipe's
// rollout length and levels as they are, not on its own levels' budgets: the
// seed task, whose reference writes 6 tokens of its environment's 7-step
// budget on the levels [0,0,0,1,1,2]. Other tasks get a rollout as long as
// their longest budget and a curriculum of every level (trainer.WithTask).
type ReferenceSchedule interface {
	Task
	ReferenceSchedule()
}

// Tuned is implemented by a task that the default recipe trains with
// settings of its own (the calc task: README, "The calc task").
type Tuned interface {
	Task
	// DefaultTuning is the task's settings under the default recipe.
	DefaultTuning() Tuning
}

// Tuning is what a Tuned task changes in the default recipe.
type Tuning struct {
	Spec           string  // the task's spec (e.g. its own options with partial credit)
	EntropyCoef    float64 // the entropy bonus at update 1
	Updates        int     // the schedule's length
	EntropyUpdates int     // the entropy decay's length
}

// Titled is implemented by a task that names its levels in headings itself
// (the seed task's "Level 1"); others get "Level 1 (name)".
type Titled interface {
	Task
	LevelTitle(level int) string
}

// Observer is implemented by a task whose tools answer: after every action
// (and at the start, Env.Reset) its Env writes an observation token
// 0..Observations()-1, and the policy's next input is the action together
// with that observation (gru.Config.Observations). A task that does not
// implement it, or declares 0, is open-loop: its policy's next input is its
// own action, and its model, hashes and goldens are those of a task without
// observations.
type Observer interface {
	Task
	// Observations is the size of the observation vocabulary (0: none).
	Observations() int
	// ObservationName spells an observation token for people.
	ObservationName(obs int32) string
}

// Observations is t's observation vocabulary size: 0 unless t is an
// Observer.
func Observations(t Task) int {
	if o, ok := t.(Observer); ok {
		return o.Observations()
	}
	return 0
}

package task

import "github.com/simdrl/simdrl/rng"

// Optional interfaces: what a task may declare beyond Task, so that nothing
// below the command asks for a task by its name.

// SeedMachine is a task whose programs run on the reference's tool machine
// (package env/seed) with its rules, levels and instances: the seed task
// (tasks/seedtask). Its Score must be env/seed's Run. Engines may score such
// a task themselves (the CUDA kernels' env.cuh), and Check reads its context
// tokens as digits.
type SeedMachine interface {
	Task
	SeedMachine()
}

// IsSeed reports whether t declares that it runs on the reference's tool
// machine (SeedMachine), whose scoring engines may implement themselves.
func IsSeed(t Task) bool { _, ok := t.(SeedMachine); return ok }

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
// settings of its own (the calc task: docs/recipes.md, "The calc recipe").
type Tuned interface {
	Task
	// DefaultTuning is the task's settings under the default recipe.
	DefaultTuning() Tuning
}

// Tuning is what a Tuned task changes in the default recipe: each setting
// it leaves zero (or empty) keeps the recipe's (trainer.WithTask merges it).
type Tuning struct {
	Spec           string  // the task's spec (e.g. its own options with partial credit)
	EntropyCoef    float64 // the entropy bonus at update 1
	Updates        int     // the schedule's length
	EntropyUpdates int     // the entropy decay's length
	EntropyFinal   float64 // the entropy bonus after the decay (the recipe's is 0)
	// The expr task's levers (trainer.Config): how the policy takes in its
	// context ("" keeps the recipe's), replayed programs and their weight,
	// item focus, and the learning rate (0 keeps the recipe's).
	Context    string
	Replay     int
	ReplayCoef float64
	ItemFocus  bool
	LR         float64
	Hidden     int // the GRU's width (0 keeps the recipe's 96)
	// StopFrom: no evaluation before this update may stop the run
	// (trainer.Config.StopFrom; 0: any may, the recipe's).
	StopFrom int
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

// Subsetter is a task whose evaluations also report subsets of a level's
// instances (the calc task's "tie", "zero", "negative": where a branching
// policy most easily goes wrong), so that a solve rate can be read per
// subset.
type Subsetter interface {
	Task
	// SubsetNames names the subsets, bit i for SubsetNames()[i].
	SubsetNames() []string
	// Subsets is in's bitmask: bit i set when in is in subset i.
	Subsets(in *Instance) uint32
}

// Enumerator is a task whose split of a level can be listed in full, so
// that an evaluation can score every held-out instance instead of a draw.
type Enumerator interface {
	Task
	// Instances lists level's instances of split in a fixed order, at most
	// max of them (0: all).
	Instances(level int, split Split, max int) []Instance
}

// Counted is an Enumerator that says how many instances Instances lists
// (with no max) without listing them: the trainer's memory estimate of its
// exhaustive evaluation reads it (enginekit.TrainerMemory), and assumes the
// most it lists of any other Enumerator.
type Counted interface {
	Enumerator
	Count(level int, split Split) int
}

// Itemized is a task whose levels are sets of items (the expr task's
// expressions, whose operands are drawn afresh every time): an instance is
// one item of its level and split (Instance.Item), and a program that solves
// one instance of an item, once Verify accepts it, solves all of them. The
// trainer weights the training items it draws (trainer.Plan.Items) and
// replays the programs it verified (trainer.Plan.Replay).
type Itemized interface {
	Task
	// Items is how many items level has in split (Training, HeldOut or
	// Transfer); 0 when it has none there (a length split's largest size
	// has only Transfer items, and is never trained on; the expressions
	// split has no Transfer items), and a split with no items is not
	// evaluated.
	Items(level int, split Split) int
	// DrawItem draws an instance of item (0..Items−1) of level and split, a
	// pure function of its arguments as Draw is (Draw draws the item
	// uniformly); its Item is item.
	DrawItem(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split Split, item int) Instance
	// Verify reports whether program solves every instance of in's item,
	// whatever its operands, not only in.
	Verify(in *Instance, program []int32) bool
}

// Items is how many items t's level has in split: Itemized.Items, or −1
// when t is not Itemized (every level has both splits).
func Items(t Task, level int, split Split) int {
	if it, ok := t.(Itemized); ok {
		return it.Items(level, split)
	}
	return -1
}

// Unstaged is a task whose model has a single level embedding, shared by
// all its levels: its curriculum's levels (the expr task's sizes) are not
// told to the policy, which must read what to do from its context.
type Unstaged interface {
	Task
	Unstaged()
}

// Stages is how many level embeddings t's model has: 1 for an Unstaged
// task, else one per level.
func Stages(t Task) int {
	if _, ok := t.(Unstaged); ok {
		return 1
	}
	return len(t.Levels())
}

// Stage is the level embedding an instance of level uses: 0 for an
// Unstaged task, else level.
func Stage(t Task, level int) int {
	if _, ok := t.(Unstaged); ok {
		return 0
	}
	return level
}

// RewardNoter is a task whose rewards can exceed 1 (a shaped bonus, partial
// credit): RewardNote says why, after the mean rewards a run prints; "" when
// they cannot. A task that is not one earns at most 1 an episode.
type RewardNoter interface {
	Task
	RewardNote() string
}

// OrderSensitive is a task that can say whether its instances depend on the
// order of their context tokens (an expression, digits to reverse): the bag
// context (trainer.ContextBag, the mean of their embeddings) loses that
// order, and a run that takes such a task's context as a bag warns.
type OrderSensitive interface {
	Task
	OrderSensitive() bool
}

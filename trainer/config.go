package trainer

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/simdrl/simdrl/task"
)

// Config is everything a training run's arithmetic depends on, plus the
// thread count (which never changes the arithmetic). The flags of cmd/simdrl
// map onto it; where the run's outputs go and which engine runs it are the
// command's business, not the config's.
type Config struct {
	Task          string  `json:"task"`      // a registered task's name (task.Open): "seed" (the reference's), "calc", …
	TaskSpec      string  `json:"task_spec"` // the task's options in its own syntax ("" for its defaults; calc: tasks/calctask.CalcSpec)
	Threads       int     `json:"threads"`
	Seed          uint64  `json:"seed"`
	Recipe        string  `json:"recipe"`
	Updates       int     `json:"updates"`
	Batch         int     `json:"batch"`
	TrainLevels   []int   `json:"stages"` // the levels to train (-stages); the key keeps the reference's word, as checkpoints store it
	LR            float64 `json:"lr"`
	Hidden        int     `json:"hidden"`
	Steps         int     `json:"steps"`
	EntropyCoef   float64 `json:"entropy_coef"`
	ValueCoef     float64 `json:"value_coef"`
	Clip          float64 `json:"clip"`
	EvalEvery     int     `json:"eval_every"`
	EvalBatch     int     `json:"eval_batch"`
	FinalEpisodes int     `json:"final_episodes"`
	Explain       int     `json:"explain"`
	Chunk         int     `json:"chunk"`

	// Recipe knobs beyond seed.py; their zero values are the seed's behaviour.
	Curriculum      string  `json:"curriculum"`        // "blocks": TrainLevels as equal blocks (seed); "mixed": every batch mixes the (unlocked) levels listed in TrainLevels
	UnlockAt        float64 `json:"unlock_at"`         // mixed: the next level unlocks when the newest one's eval solve rate reaches this (0: all from the start)
	Baseline        string  `json:"baseline"`          // "sum": adv = R − Σ_t v_t (seed); "step": adv_t = R − v_t, each step's value regressed on R
	MaskAfterAnswer bool    `json:"mask_after_answer"` // leave the tokens after the first ANS (which change nothing) out of the loss
	EntropyFinal    float64 `json:"entropy_final"`     // entropy coefficient decays linearly to this over EntropyUpdates (< 0: constant)
	EntropyUpdates  int     `json:"entropy_updates"`   // the decay's length in updates, then EntropyFinal holds (0: over Updates)
	Focus           bool    `json:"focus"`             // mixed: draw levels in proportion to 0.1 + their last eval failure rate
	StopAt          float64 `json:"stop_at"`           // stop once an evaluation solves every level in TrainLevels at this rate and a confirming one supports it (0: never; confirm.go, stoprule.go)
	// StopFrom is the first update whose evaluation may nominate the run
	// for the stop rule (0 or 1: any); earlier ones train on. Omitted from
	// JSON when 0, so that the configs of runs from before it are unchanged.
	StopFrom int `json:"stop_from,omitempty"`
	// Context is how the policy takes in the instance's context: "" or
	// "bag" (h0 from the mean of the tokens' embeddings, the seed's),
	// "read" (one GRU step per token before the first action,
	// gru.Config.Read). Omitted from JSON when "", so that the configs (and
	// hashes) of runs from before the option are unchanged.
	Context string `json:"context,omitempty"`
	// For a task whose levels are sets of items (task.Itemized: the expr
	// task), omitted from JSON when zero like Context: Replay remembered
	// programs replayed into every update with weight ReplayCoef
	// (replay.go), and ItemFocus, which draws a level's items in proportion
	// to 0.1 + their failure rate (items.go).
	Replay     int     `json:"replay,omitempty"`
	ReplayCoef float64 `json:"replay_coef,omitempty"`
	ItemFocus  bool    `json:"item_focus,omitempty"`

	// Estimator and Group: the advantage estimator (estimator.go; "":
	// REINFORCE with Baseline's value baseline) and the consecutive
	// episodes that share one instance (0 or 1: each episode its own).
	// Omitted from JSON when unset, so that configs read as before.
	Estimator string `json:"estimator,omitempty"`
	Group     int    `json:"group,omitempty"`
	// PPO's settings (Estimator "ppo", ppo.go): 0 or false is CleanRL's
	// default (Config.PPO), and each is omitted from JSON when unset.
	PPOEpochs      int     `json:"ppo_epochs,omitempty"`
	PPOMinibatches int     `json:"ppo_minibatches,omitempty"`
	ClipCoef       float64 `json:"clip_coef,omitempty"`
	GAELambda      float64 `json:"gae_lambda,omitempty"`
	Gamma          float64 `json:"gamma,omitempty"`
	NoClipVLoss    bool    `json:"no_clip_vloss,omitempty"`
	NoNormAdv      bool    `json:"no_norm_adv,omitempty"`
}

// Context values (Config.Context; "" is ContextBag).
const (
	ContextBag  = "bag"
	ContextRead = "read"
)

// ReferenceRecipe (recipe "seed") is the reference script's schedule and
// loss exactly: 60 updates of 192
// episodes, curriculum blocks [0,0,0,1,1,2] of 10 updates, Adam lr 3e-4,
// entropy 0.01, value 0.5, clip 1.0, greedy evaluation every 5 updates on 128
// episodes per level, final evaluation on 1000, 5 explanations per level.
func ReferenceRecipe() Config {
	return Config{
		Task: "seed", Threads: 1, Seed: 0, Recipe: "seed",
		Updates: 60, Batch: 192, TrainLevels: []int{0, 0, 0, 1, 1, 2},
		LR: 3e-4, Hidden: 96, Steps: 6, EntropyCoef: 0.01, ValueCoef: 0.5, Clip: 1.0,
		EvalEvery: 5, EvalBatch: 128, FinalEpisodes: 1000, Explain: 5, Chunk: 96,
		Curriculum: "blocks", Baseline: "sum", EntropyFinal: -1,
	}
}

// DefaultRecipe is the recipe `simdrl` runs without flags, the one that
// learns all three levels (docs/recipes.md, "The default recipe"): every batch mixes
// the levels, weighted toward those the last evaluation found unsolved;
// REINFORCE with a per-step learned baseline over the tokens up to the first
// ANS; a strong entropy bonus that decays to zero; lr 1e-3; and it stops once
// an evaluation solves every level at ≥ 0.99 and a confirming evaluation of
// 1000 episodes per level supports 0.99 at 99% confidence (confirm.go).
func DefaultRecipe() Config {
	c := ReferenceRecipe()
	c.Recipe = "default"
	c.TrainLevels = []int{0, 1, 2}
	c.Curriculum, c.Focus = "mixed", true
	c.Baseline, c.MaskAfterAnswer = "step", true
	c.Batch, c.Updates, c.LR = 192, 600, 1e-3
	c.EntropyCoef, c.EntropyFinal = 0.1, 0
	c.EvalEvery, c.EvalBatch, c.StopAt = 20, 200, 0.99
	return c
}

// Recipe returns the named recipe.
func Recipe(name string) (Config, error) {
	switch name {
	case "seed":
		return ReferenceRecipe(), nil
	case "default":
		return DefaultRecipe(), nil
	}
	return Config{}, fmt.Errorf("unknown recipe %q (want seed or default)", name)
}

// Upper bounds of the settings that size buffers or passes: far above any
// useful run, low enough that sizes computed from them cannot overflow.
const (
	MaxThreads  = 4096
	MaxUpdates  = 1 << 30
	MaxEpisodes = 1 << 24 // per update or evaluation round
	MaxExplain  = 10000
	// MaxSteps bounds a rollout's steps: the tape task's 32-leaf
	// expressions have budgets above 200 (1.5× their shortest programs).
	MaxSteps = 256
)

// Validate reports the first invalid setting as a *FieldError, opening the
// task through the registry (task.Open).
func (c *Config) Validate() error {
	t, err := c.OpenTask()
	if err != nil {
		return err
	}
	return task.Guard(c.Task, "checked", func() error { return c.validateTask(t) })
}

// ValidateFor is Validate for the task t, opened already (or never
// registered: cmd's engines get theirs from New, a program may pass its own
// to cpu.NewWithTask), which it validates too (task.Validate). c.Task must
// be t's name; c.TaskSpec is recorded, not read.
func (c *Config) ValidateFor(t task.Task) error {
	return c.validateFor(t, true)
}

// ValidateOpened is ValidateFor for a task that task.Open opened, and so
// validated: t is not validated again, so that a run validates its task
// once (the command line, the engines' NewOpened).
func (c *Config) ValidateOpened(t task.Task) error {
	return c.validateFor(t, false)
}

// validateFor is ValidateFor, validating t itself when validate is set. A
// panic in t's code meanwhile is returned as a *task.PanicError.
func (c *Config) validateFor(t task.Task, validate bool) error {
	if err := c.validateSettings(); err != nil {
		return err
	}
	return task.Guard(c.Task, "checked", func() error { return c.validateTaskFor(t, validate) })
}

// validateTaskFor is validateFor once the settings are checked.
func (c *Config) validateTaskFor(t task.Task, validate bool) error {
	if c.Task != t.Name() {
		return fieldError("task", "is %q but the task given is %q", c.Task, t.Name())
	}
	if !validate {
		return c.validateTask(t)
	}
	if err := task.Validate(t); err != nil { // a task not opened through task.Open
		var pe *task.PanicError
		if errors.As(err, &pe) { // the task's bug, not a setting's: it names the task
			return err
		}
		return &FieldError{Field: "task", Problem: err.Error(), Bare: true, Err: err}
	}
	return c.validateTask(t)
}

// validateSettings checks what does not depend on the task.
func (c *Config) validateSettings() error {
	const none = math.MaxInt // no upper bound
	for _, r := range []struct {
		field     string
		v, lo, hi int
	}{
		{"threads", c.Threads, 1, MaxThreads}, {"updates", c.Updates, 0, MaxUpdates}, {"batch", c.Batch, 1, MaxEpisodes},
		{"hidden", c.Hidden, 1, 4096}, {"steps", c.Steps, 1, MaxSteps}, {"eval_every", c.EvalEvery, 0, none},
		{"eval_batch", c.EvalBatch, 1, MaxEpisodes}, {"final_episodes", c.FinalEpisodes, 0, MaxEpisodes},
		{"explain", c.Explain, 0, MaxExplain}, {"chunk", c.Chunk, 1, none}, {"entropy_updates", c.EntropyUpdates, 0, MaxUpdates},
		{"replay", c.Replay, 0, MaxEpisodes}, {"stop_from", c.StopFrom, 0, MaxUpdates},
	} {
		switch {
		case r.v >= r.lo && r.v <= r.hi:
		case r.hi == none:
			return fieldError(r.field, "must be ≥ %d, got %d", r.lo, r.v)
		default:
			return fieldError(r.field, "must be in %d..%d, got %d", r.lo, r.hi, r.v)
		}
	}
	if err := c.validateEstimator(); err != nil {
		return err
	}
	for _, r := range []struct {
		field  string
		v      float64
		lo, hi float64 // v in [lo, hi], or (lo, hi] when open
		open   bool
		note   string
	}{
		{"lr", c.LR, 0, 10, true, ""}, {"entropy_coef", c.EntropyCoef, 0, 1e3, false, ""},
		{"value_coef", c.ValueCoef, 0, 1e3, false, ""}, {"clip", c.Clip, 0, 1e30, true, ""},
		{"unlock_at", c.UnlockAt, 0, 1, false, ""}, {"stop_at", c.StopAt, 0, 1, false, ""}, {"replay_coef", c.ReplayCoef, 0, 1e3, false, ""},
		{"entropy_final", c.EntropyFinal, math.Inf(-1), 1e3, false, " (< 0 keeps the coefficient constant)"},
	} {
		if ok := r.v >= r.lo && r.v <= r.hi && !(r.open && r.v == r.lo); !ok {
			bracket := "["
			if r.open {
				bracket = "("
			}
			return fieldError(r.field, "must be in %s%v, %v]%s, got %v", bracket, r.lo, r.hi, r.note, r.v)
		}
	}
	return nil
}

// validateTask checks what depends on the task t.
func (c *Config) validateTask(t task.Task) error {
	_, reference := t.(task.ReferenceSchedule)
	levels := t.Levels() // once: a task may build them at every call
	switch {
	case !anyTrains(t, len(levels)):
		return fieldError("task_spec", "leaves no level to train: the %s task holds every level out whole", t.Name())
	case len(c.TrainLevels) == 0:
		return fieldError("stages", "must list at least one level")
	case c.Curriculum != "blocks" && c.Curriculum != "mixed":
		return fieldError("curriculum", "must be blocks or mixed, got %q", c.Curriculum)
	case c.Baseline != "sum" && c.Baseline != "step":
		return fieldError("baseline", "must be sum or step, got %q", c.Baseline)
	case c.Context != "" && c.Context != ContextBag && c.Context != ContextRead:
		return fieldError("context", "must be bag or read, got %q", c.Context)
	}
	for _, s := range c.TrainLevels {
		if s < 0 || s >= len(levels) {
			return fieldError("stages", "has an unknown level %d (the %s task has levels 0..%d)", s, t.Name(), len(levels)-1)
		}
		if task.Items(t, s, task.Training) == 0 {
			return fieldError("stages", "has level %d (%s), which has no training items (it is held out whole)", s, levels[s].Name)
		}
	}
	if _, ok := t.(task.Itemized); !ok {
		switch {
		case c.Replay > 0:
			return fieldError("replay", "needs a task whose levels are sets of items (as the expr, tape and game24 tasks' are); the %s task's are not", t.Name())
		case c.ItemFocus:
			return fieldError("item_focus", "needs a task whose levels are sets of items (as the expr, tape and game24 tasks' are); the %s task's are not", t.Name())
		}
	}
	// A rollout shorter than a level's budget contradicts it, and one shorter
	// than its shortest program can never solve it. (The seed task's budget is
	// its environment's 7 steps, of which the reference writes 6 tokens:
	// task.ReferenceSchedule.)
	for i, l := range levels {
		switch {
		case c.Steps < l.Shortest:
			return fieldError("steps", "%d can never solve level %d (%s), whose shortest program has %d tokens", c.Steps, i, l.Name, l.Shortest)
		case c.Steps < l.Budget && !reference:
			return &FieldError{Field: "steps", Problem: fmt.Sprintf("%d is below level %d's budget of %d (%s)", c.Steps, i, l.Budget, l.Name),
				Hint: stepsHint(t, levels)}
		}
	}
	return nil
}

// stepsHint says how to fit a rollout to t's budgets, in t's words: only a
// task whose levels the command line writes (calc's -levels) can give a
// level a smaller :budget.
func stepsHint(t task.Task, levels []task.Level) string {
	longest := 0
	for _, l := range levels {
		longest = max(longest, l.Budget)
	}
	hint := fmt.Sprintf("raise -steps to %d, the longest budget", longest)
	if ed := task.SpecEditorOf(t.Name()); ed != nil && slices.Contains(ed.FlagOptions(), "levels") {
		hint += ", or give the level a smaller :budget"
	}
	return hint
}

// anyTrains reports whether some of t's n levels has training items.
func anyTrains(t task.Task, n int) bool {
	for i := range n {
		if task.Items(t, i, task.Training) != 0 {
			return true
		}
	}
	return false
}

// EntropyAt is the entropy coefficient for update u (1-based): a linear
// decay from EntropyCoef at update 1 to EntropyFinal at update
// EntropyUpdates (0: Updates), EntropyFinal after it. Its own length keeps
// a longer run (-updates) from also exploring longer.
func (c *Config) EntropyAt(u int) float64 {
	n := c.Updates
	if c.EntropyUpdates > 0 {
		n = c.EntropyUpdates
	}
	switch {
	case c.EntropyFinal < 0 || u <= 1:
		return c.EntropyCoef
	case n <= 1:
		return c.EntropyFinal
	}
	f := min(float64(u-1)/float64(n-1), 1)
	return c.EntropyCoef + (c.EntropyFinal-c.EntropyCoef)*f
}

// levelAt is the curriculum's level for update u (1-based): the levels list
// is a sequence of equal blocks of Updates/len(TrainLevels) updates (at least 1),
// and the last level holds after the list ends, as in seed.py.
func (c *Config) levelAt(u int) int {
	block := max(c.Updates/len(c.TrainLevels), 1)
	i := min((u-1)/block, len(c.TrainLevels)-1)
	return c.TrainLevels[i]
}

// WithTask gives cfg its task's defaults (TaskDefaults), opening the task
// through the registry. A panic in the task's code meanwhile is returned as
// a *task.PanicError.
func WithTask(cfg Config) (Config, error) {
	t, err := cfg.OpenTask()
	if err != nil {
		return cfg, err
	}
	out := cfg
	err = task.Guard(cfg.Task, "opened", func() error {
		out = TaskDefaults(cfg, t)
		return nil
	})
	if err != nil {
		return cfg, err
	}
	return out, nil
}

// TaskDefaults gives cfg the defaults of its task t, opened already: a
// rollout as long as the longest level's budget and a curriculum of every
// level; under the default recipe a task.Tuned task's settings too (the
// calc task's partial credit and longer schedule: docs/recipes.md, "The
// calc recipe"), and a task that declares none the untuned recipe's
// (untuned.go). A task.ReferenceSchedule task (the seed task) keeps cfg as
// it is. A panic in t's code is not recovered here: WithTask returns it as
// an error (task.Guard does for a task opened otherwise).
func TaskDefaults(cfg Config, t task.Task) Config {
	if _, ok := t.(task.ReferenceSchedule); ok {
		return cfg
	}
	cfg.Steps = 0
	cfg.TrainLevels = nil
	for i, l := range t.Levels() {
		cfg.Steps = max(cfg.Steps, l.Budget)
		if task.Items(t, i, task.Training) != 0 { // a level held out whole is evaluated, not trained
			cfg.TrainLevels = append(cfg.TrainLevels, i)
		}
	}
	if cfg.Recipe == "default" {
		cfg = tune(cfg, tuningOf(t))
	}
	return cfg
}

// tune merges tu's settings over cfg: each one tu sets (non-zero, non-empty)
// replaces the recipe's, and the recipe keeps every one tu leaves out, so
// that a task that tunes only its context still trains on the recipe's
// schedule and entropy bonus.
func tune(cfg Config, tu task.Tuning) Config {
	set := func(dst *int, v int) {
		if v != 0 {
			*dst = v
		}
	}
	setF := func(dst *float64, v float64) {
		if v != 0 {
			*dst = v
		}
	}
	if tu.Spec != "" {
		cfg.TaskSpec = tu.Spec
	}
	if tu.Context != "" {
		cfg.Context = tu.Context
	}
	set(&cfg.Updates, tu.Updates)
	set(&cfg.EntropyUpdates, tu.EntropyUpdates)
	set(&cfg.Replay, tu.Replay)
	set(&cfg.Hidden, tu.Hidden)
	set(&cfg.StopFrom, tu.StopFrom)
	setF(&cfg.EntropyCoef, tu.EntropyCoef)
	setF(&cfg.EntropyFinal, tu.EntropyFinal)
	setF(&cfg.ReplayCoef, tu.ReplayCoef)
	setF(&cfg.LR, tu.LR)
	cfg.ItemFocus = cfg.ItemFocus || tu.ItemFocus
	return cfg
}

// OpenTask opens the configuration's task through the registry
// (task.Open), after checking the settings that do not depend on it, so that
// its error is the first invalid setting in Validate's order. Its errors are
// FieldErrors: of a setting, of task for a name no task is registered under,
// else of task_spec, with the spec's option at fault as Option (the task's
// task.SpecError: levels, partial_credit, leaves, …); a panic in the task's
// code is a *task.PanicError.
func (c *Config) OpenTask() (task.Task, error) {
	if err := c.validateSettings(); err != nil {
		return nil, err
	}
	t, err := task.Open(c.Task, c.TaskSpec)
	var ue *task.UnknownError
	var se *task.SpecError
	var ve *task.ViolationError
	var pe *task.PanicError
	switch {
	case errors.As(err, &pe): // the task's bug, not a setting's: it names the task
		return nil, err
	case errors.As(err, &ue):
		return nil, fieldError("task", "must be %s, got %q", orList(task.Names()), c.Task)
	case errors.As(err, &ve): // the task can never train (task.Validate)
		return nil, &FieldError{Field: "task", Problem: ve.Error(), Bare: true, Err: ve}
	case errors.As(err, &se) && se.Key == "task_spec":
		return nil, &FieldError{Field: "task_spec", Problem: se.Err.Error(), Bare: true}
	case errors.As(err, &se):
		return nil, &FieldError{Field: "task_spec", Option: se.Key, Problem: se.Error(), Bare: true}
	case err != nil:
		return nil, &FieldError{Field: "task_spec", Problem: err.Error(), Bare: true}
	}
	return t, nil
}

// orList writes "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// FieldError is an invalid setting: Field is the Config field's JSON name
// (the command line shows it as its flag).
type FieldError struct {
	Field, Problem string
	// Bare: Problem reads on its own, after "field: " ("level 2 …").
	Bare bool
	// Option is the key of the task spec's option at fault when Field is
	// task_spec ("levels", "leaves"; "" for the spec as a whole).
	Option string
	// Hint says how to change the setting where it was given on a command
	// line ("raise -steps …"); Error leaves it out, as a checkpoint's
	// config or a Go caller has no flags.
	Hint string
	// Err is the task's own error the problem reports, when it is one
	// (a *task.ViolationError: the task breaks its contract).
	Err error
}

func (e *FieldError) Error() string {
	if e.Bare {
		return e.Field + ": " + e.Problem
	}
	return e.Field + " " + e.Problem
}

func fieldError(field, format string, a ...any) error {
	return &FieldError{Field: field, Problem: fmt.Sprintf(format, a...)}
}

package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	flag "github.com/spf13/pflag"
)

var errHelp = errors.New("help requested")

// files are the command's own options around training: which engine, where
// the outputs go, what is printed. None of them is part of a checkpoint.
type files struct {
	device             string
	report             string
	quiet              bool
	save, load, resume string
	saveEvery          int
	evalOnly           bool
	metrics, plot      string
	tensorboard        string // a directory
	exhaustive         int    // trainer.Options.Exhaustive, but 0 is none
	// The sampled evaluation (trainer.Options.EvalSamples, EvalPassK,
	// EvalTemperature): -eval-samples, -eval-pass-k, -eval-temperature.
	evalSamples, evalPassK int
	evalTemperature        float64
}

// parseFlags reads a command line for a fresh run into a Config: the
// recipe's values, then every flag given explicitly on top. Both -flag and
// --flag spellings work.
func parseFlags(args []string, stdout io.Writer) (trainer.Config, error) {
	cl, err := parseCommandLine(args, stdout)
	if err != nil {
		return trainer.Config{}, err
	}
	return cl.fresh(nil)
}

// flagValues are where the flag set writes what the command line says.
type flagValues struct {
	threads       *int
	seed          *uint64
	recipe        *string
	task          *string
	taskSpec      *string
	levels        *string
	partialCredit *float64
	updates       *int
	batch         *int
	trainLevels   *string
	lr            *float64
	hidden        *int
	steps         *int
	entropy       *float64
	value         *float64
	clip          *float64
	evalEvery     *int
	evalBatch     *int
	final         *int
	explain       *int
	chunk         *int
	curriculum    *string
	unlockAt      *float64
	baseline      *string
	estimator     *string
	group         *int
	ppo           ppoFlags
	context       *string
	mask          *bool
	entropyFinal  *float64
	decayUpdates  *int
	focus         *bool
	stopAt        *float64
	stopFrom      *int
	replay        *int
	replayCoef    *float64
	itemFocus     *bool
	help          *bool
	fl            files
}

// newFlagSet defines every flag of the command, with the default recipe's
// values as defaults.
func newFlagSet() (*flag.FlagSet, *flagValues) {
	def := trainer.DefaultRecipe()
	fs := flag.NewFlagSet("simdrl", flag.ContinueOnError)
	o := &flagValues{}
	fs.SetOutput(io.Discard) // errors are printed once, by the caller
	fs.SortFlags = false
	// -train-levels spells -stages in simdrl's word; -stages stays, as
	// scripts and the checkpoint's config ("stages") use it.
	fs.SetNormalizeFunc(func(_ *flag.FlagSet, name string) flag.NormalizedName {
		if name == "train-levels" {
			name = "stages"
		}
		return flag.NormalizedName(name)
	})
	fs.StringVar(&o.fl.device, "device", "cpu", "where to train: cpu or cuda")
	o.threads = fs.Int("threads", runtime.NumCPU(), fmt.Sprintf("CPU threads [1, %d]; the results do not depend on it", trainer.MaxThreads))
	o.seed = fs.Uint64("seed", def.Seed, "random seed: model init, tasks and sampling [0, 2^64−1]")
	o.task = fs.String("task", defaultTask(def.Task, task.Names()), taskUsage())
	o.taskSpec = fs.String("task-spec", "", "the task's options in its own syntax, replacing the recipe's (calc: 'levels=a*b, a*b+c*d; partial_credit=0.3'; seed: none); excludes -levels and -partial-credit")
	o.levels = fs.String("levels", "", "calc: the curriculum as comma-separated expressions over a, b, c, … with + - * and parentheses, each optionally :budget (default: the six levels of docs/tasks.md)")
	o.partialCredit = fs.Float64("partial-credit", 0, "calc: reward weight of the expression's inner values held on the way [0, 10] (0: only correct answers earn; default recipe: 0.3)")
	o.recipe = fs.String("recipe", def.Recipe, "hyper-parameter recipe: default or seed (seed.py exactly); flags given explicitly override it")
	o.updates = fs.Int("updates", def.Updates, fmt.Sprintf("training updates [0, %d] (a task's recipe may set its own, as calc's, expr's and tape's do; a task with no tuning of its own: %d)", trainer.MaxUpdates, trainer.UntunedUpdates))
	o.batch = fs.Int("batch", def.Batch, fmt.Sprintf("episodes per update [1, %d]", trainer.MaxEpisodes))
	o.trainLevels = fs.String("stages", joinInts(def.TrainLevels), "levels to train (also -train-levels): with -curriculum blocks, the level of each equal block of updates (e.g. 0,0,0,1,1,2); with mixed, the set mixed in every batch")
	o.lr = fs.Float64("lr", def.LR, "Adam learning rate (0, 10]")
	o.hidden = fs.Int("hidden", def.Hidden, "GRU hidden size d [1, 4096]")
	o.steps = fs.Int("steps", def.Steps, fmt.Sprintf("tokens the policy writes per episode [1, %d], at least every level's budget (calc, expr, tape: the longest budget by default)", trainer.MaxSteps))
	o.entropy = fs.Float64("entropy-coef", def.EntropyCoef, "weight of the entropy bonus [0, 1000]")
	o.value = fs.Float64("value-coef", def.ValueCoef, "weight of the value loss [0, 1000]")
	o.clip = fs.Float64("clip", def.Clip, "gradient-norm clip (0, 1e30]")
	o.evalEvery = fs.Int("eval-every", def.EvalEvery, "greedy evaluation every N updates, ≥ 0 (0 disables)")
	o.evalBatch = fs.Int("eval-batch", def.EvalBatch, fmt.Sprintf("episodes per level in each periodic evaluation [1, %d]", trainer.MaxEpisodes))
	o.final = fs.Int("final-episodes", def.FinalEpisodes, fmt.Sprintf("episodes per level in the final evaluation [0, %d] (0 disables)", trainer.MaxEpisodes))
	fs.IntVar(&o.fl.exhaustive, "exhaustive", trainer.MaxExhaustive, fmt.Sprintf("calc, expr: after the final evaluation, play every instance of each level and split with at most N instances [0, %d] (0 disables)", trainer.MaxExhaustive))
	fs.IntVar(&o.fl.evalSamples, "eval-samples", 0, fmt.Sprintf("CPU: also evaluate by sampling, N episodes of each evaluated instance, for pass@1 and pass@k beside the greedy figures [0, %d] (0 disables)", trainer.MaxEpisodes))
	fs.IntVar(&o.fl.evalPassK, "eval-pass-k", 0, "the k of the sampled evaluation's pass@k [1, -eval-samples] (0: -eval-samples)")
	fs.Float64Var(&o.fl.evalTemperature, "eval-temperature", 1, "the sampled evaluation's temperature (0, 100]: samples from softmax(logits/T)")
	o.explain = fs.Int("explain", def.Explain, fmt.Sprintf("greedy samples per level to explain at the end [0, %d]", trainer.MaxExplain))
	o.chunk = fs.Int("chunk", def.Chunk, "episodes per chunk, ≥ 1 (the unit of work; decides the arithmetic, not -threads; above -batch it acts as -batch)")
	o.curriculum = fs.String("curriculum", def.Curriculum, "blocks: -stages as equal blocks of updates (seed); mixed: every batch mixes the unlocked levels")
	o.unlockAt = fs.Float64("unlock-at", def.UnlockAt, "mixed curriculum: unlock the next level when the newest one's eval solve rate reaches this [0, 1] (0: all levels from the start)")
	o.baseline = fs.String("baseline", def.Baseline, "sum: advantage R − Σ_t value_t (seed); step: advantage R − value_t per step")
	o.estimator = fs.String("estimator", def.Estimator, "advantage estimator: empty for REINFORCE with -baseline; rloo, grpo or drgrpo: a group baseline over -group episodes of one instance; ppo: clipped surrogate over GAE(λ), -ppo-epochs × -ppo-minibatches Adam steps per update")
	o.group = fs.Int("group", def.GroupSize(), fmt.Sprintf("consecutive episodes that play one instance [1, %d], dividing -batch and -chunk (rloo, grpo, drgrpo: ≥ 2; -device cpu and cuda)", trainer.MaxEpisodes))
	o.ppo.define(fs)
	o.context = fs.String("context", trainer.ContextBag, "bag: h0 from the mean of the context tokens' embeddings (seed); read: the GRU reads the context one token a step before it writes")
	o.mask = fs.Bool("mask-after-answer", def.MaskAfterAnswer, "leave the tokens after the first ANS out of the loss")
	o.entropyFinal = fs.Float64("entropy-final", def.EntropyFinal, "entropy coefficient decays linearly to this, ≤ 1000 (< 0: constant)")
	o.decayUpdates = fs.Int("entropy-updates", def.EntropyUpdates, fmt.Sprintf("the entropy decay's length in updates [0, %d], then -entropy-final holds (0: over -updates; a task's recipe may set its own; a task with no tuning of its own: %d)", trainer.MaxUpdates, trainer.UntunedEntropyUpdates))
	o.focus = fs.Bool("focus", def.Focus, "mixed curriculum: draw levels in proportion to 0.1 + their last eval failure rate")
	o.stopFrom = fs.Int("stop-from", def.StopFrom, fmt.Sprintf("no evaluation before this update [0, %d] may stop the run (-stop-at); earlier ones train on (0: any may; tape default recipe: 1500)", trainer.MaxUpdates))
	o.stopAt = fs.Float64("stop-at", def.StopAt, "stop once an evaluation solves every level at this rate [0, 1] and a confirming one supports it (1000 episodes per level the first time; false stops at most 1% over the run) (0: never)")
	o.replay = fs.Int("replay", 0, fmt.Sprintf("expr: remembered programs (the best verified one per training expression) replayed into every update [0, %d] (0: none; default recipe: the task's)", trainer.MaxEpisodes))
	o.replayCoef = fs.Float64("replay-coef", 0, "expr: weight of the replayed programs' log-likelihood [0, 1000]")
	o.itemFocus = fs.Bool("item-focus", false, "expr, tape (their default recipes: on), game24: draw each size's expressions (game24: each hand) in proportion to 0.1 + their recent failure rate")
	fs.StringVar(&o.fl.save, "save", "", "write a checkpoint (safetensors) to this file every -save-every updates and at the end")
	fs.IntVar(&o.fl.saveEvery, "save-every", 0, "with -save: also save every N updates, ≥ 0 (0: only at the end)")
	fs.StringVar(&o.fl.load, "load", "", "start from the weights of this checkpoint (not its optimiser or schedule)")
	fs.StringVar(&o.fl.resume, "resume", "", "continue the run saved in this checkpoint exactly where it stopped")
	fs.BoolVar(&o.fl.evalOnly, "eval-only", false, "with -load or -resume: evaluate and explain, no training")
	fs.StringVar(&o.fl.metrics, "metrics", "", "append one JSON line per evaluation to this file")
	fs.StringVar(&o.fl.plot, "plot", "", "draw the learning curves into this PNG file at the end")
	fs.StringVar(&o.fl.tensorboard, "tensorboard", "", "write TensorBoard event files of the -metrics values into this directory (made if missing)")
	fs.StringVar(&o.fl.report, "report", "", "write a JSON report to this file")
	fs.BoolVar(&o.fl.quiet, "quiet", false, "print only the final lines")
	o.help = fs.BoolP("help", "h", false, "show this help")

	return fs, o
}

// defaultTask is -task's default: the recipe's task where the program has
// it (simdrl: seed), else the program's only task (a plug-in main of one
// line whose package registers one), else none: -task must name one of
// several, and -h shows no default the program does not have.
func defaultTask(recipe string, names []string) string {
	switch {
	case slices.Contains(names, recipe):
		return recipe
	case len(names) == 1:
		return names[0]
	}
	return ""
}

// builtinTaskNotes describe the tasks simdrl ships, for -task's help.
var builtinTaskNotes = map[string]string{
	"seed": "the reference's tool environment",
	"calc": "a calculator that needs memory",
	"expr": "a program for an expression it reads",
	"tape": "an expression read through a head, computed on two stacks",
	// issue 53's search tasks (tasks/countdowntask)
	"countdown3": "combine 3 numbers into a target, searching with UNDO",
	"countdown4": "the same with 4",
	"game24":     "make 24 from 4 values 1..13",
}

// taskUsage is -task's help: every registered task (task.Names(), a
// program's own included), a built-in one with what it is.
func taskUsage() string {
	names := task.Names()
	for i, n := range names {
		if note, ok := builtinTaskNotes[n]; ok {
			names[i] = n + " (" + note + ")"
		}
	}
	switch len(names) {
	case 0:
		return "what to learn: no task is registered (import a task package)"
	case 1:
		return "what to learn: " + names[0]
	}
	return "what to learn: " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// commandLine is a parsed command line: the command's own options (files)
// and the settings given explicitly, which apply on top of a base config:
// the recipe's for a fresh run or a -load, the checkpoint's for -resume.
// Nothing here opens a task: the caller decides which config will run first
// (a checkpoint's task and levels), so that every message names the right
// flag and no level is searched twice.
type commandLine struct {
	fs          *flag.FlagSet
	o           *flagValues
	fl          files
	trainLevels []int
	task        openedTask // the run's task, opened once
	// fromRecipe: the run starts from the recipe and the task's defaults
	// (fresh, no -load), so that a setting no flag gave is the task's.
	fromRecipe bool
}

// parseCommandLine reads args. -h prints the help and returns errHelp.
func parseCommandLine(args []string, stdout io.Writer) (*commandLine, error) {
	fs, o := newFlagSet()
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		// pflag names the long flag it was handed (--foo for -foo).
		msg := strings.Replace(err.Error(), "unknown flag: --", "unknown flag -", 1)
		if msg != err.Error() {
			msg += " (simdrl -h lists the flags)"
		}
		return nil, errors.New(msg)
	}
	if *o.help {
		fmt.Fprintf(stdout, "Usage: simdrl [flags]\n\nTrains the GRU actor-critic tool-use agent with batched REINFORCE.\n"+
			"Flags may be written -flag or --flag. Defaults are the default recipe's for the seed task (a task's recipe may\n"+
			"change them, as the flags say); [lo, hi] is a flag's range.\n\n%s", fs.FlagUsages())
		return nil, errHelp
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0))
	}
	// Blanks around the levels mean nothing, as in a spec ("levels= " is the
	// default curriculum): -levels ' ' is -levels '', not a curriculum of none.
	*o.levels = strings.TrimSpace(*o.levels)
	cl := &commandLine{fs: fs, o: o, fl: o.fl}
	f := cl.fl
	switch {
	case engines[f.device] == nil:
		return nil, fmt.Errorf("-device must be cpu or cuda, got %q", f.device)
	case f.load != "" && f.resume != "":
		return nil, fmt.Errorf("-load and -resume exclude each other: -resume continues a run, -load only takes its weights")
	case f.evalOnly && f.load == "" && f.resume == "":
		return nil, fmt.Errorf("-eval-only needs a model: give -load FILE")
	case f.saveEvery < 0:
		return nil, fmt.Errorf("-save-every must be ≥ 0, got %d", f.saveEvery)
	case f.exhaustive < 0 || f.exhaustive > trainer.MaxExhaustive:
		return nil, fmt.Errorf("-exhaustive must be in [0, %d], got %d", trainer.MaxExhaustive, f.exhaustive)
	case f.evalSamples < 0 || f.evalSamples > trainer.MaxEpisodes:
		return nil, fmt.Errorf("-eval-samples must be in [0, %d], got %d", trainer.MaxEpisodes, f.evalSamples)
	case f.evalPassK < 0 || f.evalPassK > max(f.evalSamples, 1) || (f.evalPassK > 0 && f.evalSamples == 0):
		return nil, fmt.Errorf("-eval-pass-k must be in [1, -eval-samples] (and needs -eval-samples), got %d", f.evalPassK)
	case !(f.evalTemperature > 0 && f.evalTemperature <= 100):
		return nil, fmt.Errorf("-eval-temperature must be in (0, 100], got %v", f.evalTemperature)
	case f.evalSamples > 0 && f.device != "cpu":
		return nil, fmt.Errorf("-eval-samples: the sampled evaluation runs on the CPU engine only (-device cpu)")
	case f.saveEvery > 0 && f.save == "":
		return nil, fmt.Errorf("-save-every needs -save FILE")
	case f.evalOnly && f.save != "":
		return nil, fmt.Errorf("-eval-only trains nothing to save: drop -save (the model stays in its file)")
	case f.evalOnly && f.metrics != "":
		return nil, fmt.Errorf("-eval-only makes no periodic evaluations for -metrics: use -report FILE for the final evaluation")
	case f.evalOnly && f.tensorboard != "":
		return nil, fmt.Errorf("-eval-only makes no periodic evaluations for -tensorboard: use -report FILE for the final evaluation")
	case fs.Changed("task-spec") && (fs.Changed("levels") || fs.Changed("partial-credit")):
		return nil, fmt.Errorf("-task-spec and -levels or -partial-credit exclude each other: -task-spec is the task's whole spec (calc: 'levels=…; partial_credit=…')")
	case fs.Changed("context") && *o.context != trainer.ContextBag && *o.context != trainer.ContextRead:
		return nil, fmt.Errorf("-context must be %s or %s, got %q", trainer.ContextBag, trainer.ContextRead, *o.context)
	case f.evalOnly && f.plot != "":
		return nil, fmt.Errorf("-plot: an -eval-only run makes no evaluations to draw (it needs training updates and -eval-every > 0)")
	}
	if fs.Changed("stages") {
		var err error
		if cl.trainLevels, err = parseTrainLevels(*o.trainLevels); err != nil {
			return nil, err
		}
	}
	return cl, nil
}

// exhaustiveOption is -exhaustive as trainer.Options.Exhaustive (whose 0
// is the default).
func (f files) exhaustiveOption() int {
	if f.exhaustive == 0 {
		return -1
	}
	return f.exhaustive
}

// sampledOptions sets the sampled evaluation's flags on opt.
func (f files) sampledOptions(opt trainer.Options) trainer.Options {
	opt.EvalSamples, opt.EvalPassK, opt.EvalTemperature = f.evalSamples, f.evalPassK, f.evalTemperature
	return opt
}

// changed reports whether the flag was given explicitly.
func (cl *commandLine) changed(name string) bool { return cl.fs.Changed(name) }

// fresh is the config of a run that starts from the recipe: the flags'
// task, levels, hidden width and context, except where from (a -load
// checkpoint's config) says otherwise and no flag does (a model read as it
// was trained; -context may still change it, the tensors being the same); then the task's defaults
// (trainer.WithTask), then every explicit flag.
func (cl *commandLine) fresh(from *trainer.Config) (trainer.Config, error) {
	base, err := trainer.Recipe(*cl.o.recipe)
	if err != nil {
		return base, fmt.Errorf("-recipe: %v", err)
	}
	base.Task = *cl.o.task
	if from != nil && (!cl.changed("task") || base.Task == from.Task) {
		base.Task = from.Task
	}
	if base.Task == "" {
		return base, fmt.Errorf("-task: this command has several tasks and no default: name one (%s)", strings.Join(task.Names(), ", "))
	}
	base.TaskSpec = cl.flagSpec(base.Task)
	if from != nil {
		if !cl.changed("task") || base.Task == from.Task {
			if !cl.changed("task-spec") && (!cl.changed("levels") || sameOption(from.Task, levelsOption, *cl.o.levels, optionOf(*from, levelsOption))) {
				base.TaskSpec = shapeOf(*from)
			}
		}
		if !cl.changed("hidden") {
			base.Hidden = from.Hidden
		}
		if !cl.changed("context") {
			base.Context = from.Context
		}
	}
	if err := cl.checkOptionFlags(base.Task); err != nil {
		return base, err
	}
	keptSpec := from != nil && base.Task == from.Task && !cl.changed("levels") && !cl.changed("task-spec")
	cl.fromRecipe = from == nil
	t, err := cl.task.open(base)
	if err != nil {
		return base, cl.phrase(err, base)
	}
	if base, err = defaults(base, t); err != nil {
		return base, err
	}
	if from != nil && !cl.changed("hidden") {
		base.Hidden = from.Hidden // the checkpoint's width, over a task's tuned one
	}
	if keptSpec && base.Task != "calc" {
		base.TaskSpec = from.TaskSpec // the model reads its task as it was trained (a recipe's tuning forces none of it)
	}
	return cl.apply(base)
}

// resumed is the config of a -resume run: the checkpoint's, with every flag
// given explicitly on top. A new task or curriculum brings its own rollout
// length and levels unless -steps or -stages say otherwise.
func (cl *commandLine) resumed(saved trainer.Config) (trainer.Config, error) {
	if cl.changed("recipe") && *cl.o.recipe != saved.Recipe {
		return saved, fmt.Errorf("-recipe %s differs from the checkpoint's %s; -resume keeps the run's recipe", *cl.o.recipe, saved.Recipe)
	}
	taskName := saved.Task
	if cl.changed("task") {
		taskName = *cl.o.task
	}
	if err := cl.checkOptionFlags(taskName); err != nil {
		return saved, err
	}
	if cl.changed("task") || cl.changed("levels") || cl.changed("task-spec") {
		next := saved
		if cl.changed("task") && *cl.o.task != saved.Task {
			// A new task starts from its default spec.
			next.Task, next.TaskSpec = *cl.o.task, ""
		}
		var optErr error
		if cl.changed("levels") {
			optErr = setOption(&next, levelsOption, *cl.o.levels)
		}
		if cl.changed("task-spec") {
			next.TaskSpec = *cl.o.taskSpec
		}
		if next.Task == saved.Task && sameSpec(next.Task, next.TaskSpec, saved.TaskSpec) {
			return cl.apply(saved) // the flags restate the run's own task: nothing changes
		}
		if optErr != nil {
			return saved, cl.phrase(optErr, next)
		}
		t, err := cl.task.open(next)
		if err != nil {
			return saved, cl.phrase(err, next)
		}
		if _, ok := t.(task.ReferenceSchedule); ok {
			def := trainer.DefaultRecipe()
			next.Steps, next.TrainLevels = def.Steps, def.TrainLevels
		} else {
			err := task.Guard(next.Task, "opened", func() error {
				next.Steps, next.TrainLevels = 0, nil
				for i, l := range t.Levels() {
					next.Steps = max(next.Steps, l.Budget)
					if task.Items(t, i, task.Training) != 0 { // a level held out whole is not trained
						next.TrainLevels = append(next.TrainLevels, i)
					}
				}
				return nil
			})
			if err != nil {
				return saved, err
			}
		}
		saved = next
	}
	return cl.apply(saved)
}

// apply sets every flag given explicitly onto cfg and validates the result;
// the error names the flag.
func (cl *commandLine) apply(cfg trainer.Config) (trainer.Config, error) {
	o, fs := cl.o, cl.fs
	set := func(name string, apply func()) {
		if fs.Changed(name) {
			apply()
		}
	}
	cfg.Threads = *o.threads // not part of the arithmetic: always this machine's
	set("seed", func() { cfg.Seed = *o.seed })
	set("updates", func() { cfg.Updates = *o.updates })
	set("batch", func() { cfg.Batch = *o.batch })
	set("lr", func() { cfg.LR = *o.lr })
	set("hidden", func() { cfg.Hidden = *o.hidden })
	set("steps", func() { cfg.Steps = *o.steps })
	set("entropy-coef", func() { cfg.EntropyCoef = *o.entropy })
	set("value-coef", func() { cfg.ValueCoef = *o.value })
	set("clip", func() { cfg.Clip = *o.clip })
	set("eval-every", func() { cfg.EvalEvery = *o.evalEvery })
	set("eval-batch", func() { cfg.EvalBatch = *o.evalBatch })
	set("final-episodes", func() { cfg.FinalEpisodes = *o.final })
	set("explain", func() { cfg.Explain = *o.explain })
	set("chunk", func() { cfg.Chunk = *o.chunk })
	set("curriculum", func() { cfg.Curriculum = *o.curriculum })
	set("unlock-at", func() { cfg.UnlockAt = *o.unlockAt })
	set("baseline", func() { cfg.Baseline = *o.baseline })
	set("estimator", func() { cfg.Estimator = *o.estimator })
	set("group", func() { cfg.Group = *o.group })
	o.ppo.apply(&cfg, set)
	set("context", func() {
		// bag is the zero value, which a config omits (trainer.Config.Context)
		if cfg.Context = *o.context; cfg.Context == trainer.ContextBag {
			cfg.Context = ""
		}
	})
	set("mask-after-answer", func() { cfg.MaskAfterAnswer = *o.mask })
	set("entropy-final", func() { cfg.EntropyFinal = *o.entropyFinal })
	set("entropy-updates", func() { cfg.EntropyUpdates = *o.decayUpdates })
	set("focus", func() { cfg.Focus = *o.focus })
	set("stop-at", func() { cfg.StopAt = *o.stopAt })
	set("stop-from", func() { cfg.StopFrom = *o.stopFrom })
	set("replay", func() { cfg.Replay = *o.replay })
	set("replay-coef", func() { cfg.ReplayCoef = *o.replayCoef })
	set("item-focus", func() { cfg.ItemFocus = *o.itemFocus })
	set("stages", func() { cfg.TrainLevels = cl.trainLevels })
	set("task", func() { cfg.Task = *o.task })
	before := cfg.TaskSpec
	var optErr error
	setOpt := func(key, value string) {
		if err := setOption(&cfg, key, value); err != nil && optErr == nil {
			optErr = err
		}
	}
	set("levels", func() { setOpt(levelsOption, *o.levels) })
	set("partial-credit", func() { setOpt(partialCreditOption, formatFloat(*o.partialCredit)) })
	set("task-spec", func() { cfg.TaskSpec = *o.taskSpec })
	if sameSpec(cfg.Task, cfg.TaskSpec, before) {
		cfg.TaskSpec = before // a restated spec keeps its spelling
	}
	if fs.Changed("levels") || fs.Changed("partial-credit") {
		if optErr != nil {
			return cfg, cl.phrase(optErr, cfg)
		}
	}
	if err := cl.task.validate(cfg); err != nil {
		return cfg, cl.phrase(err, cfg)
	}
	return cfg, nil
}

// normalizeArgs turns Go-style single-dash long flags (-threads 16,
// -lr=1e-3) into pflag's --threads, so both spellings work. A single dash
// followed by a letter and more is a long name, known or not (so -foo is an
// unknown flag, not the shorthand f); values such as -0.5 are left alone.
func normalizeArgs(args []string, fs *flag.FlagSet) []string {
	out := make([]string, 0, len(args))
	wantsValue := false // the previous argument is a flag that takes the next one as its value
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if wantsValue {
			// A value, however it looks: -report -out.json writes -out.json.
			out, wantsValue = append(out, a), false
			continue
		}
		if len(a) > 2 && a[0] == '-' && isLetter(a[1]) {
			name, _, _ := strings.Cut(a[1:], "=")
			if len(name) > 1 || fs.Lookup(name) != nil {
				a = "-" + a
			}
		}
		if strings.HasPrefix(a, "--") && !strings.Contains(a, "=") {
			f := fs.Lookup(a[2:])
			wantsValue = f != nil && f.NoOptDefVal == ""
		} else if len(a) == 2 && a[0] == '-' && a[1] != '-' {
			f := fs.ShorthandLookup(a[1:])
			wantsValue = f != nil && f.NoOptDefVal == ""
		}
		out = append(out, a)
	}
	return out
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// parseTrainLevels reads a curriculum such as "0,0,0,1,1,2".
func parseTrainLevels(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, fmt.Errorf("-stages: empty curriculum")
	}
	var out []int
	for i, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("-stages: entry %d of %q is empty", i+1, s)
		}
		v, err := strconv.Atoi(f)
		if err != nil || strconv.Itoa(v) != f {
			return nil, fmt.Errorf("-stages: %q is not a level number", f)
		}
		if v < 0 {
			return nil, fmt.Errorf("-stages: %d is not a level", v)
		}
		out = append(out, v)
	}
	return out, nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

// calcOptionFlags are the calc spec's options that have flags of their own.
var calcOptionFlags = map[string]string{"levels": "levels", "partial_credit": "partial-credit"}

// viaSpec names -levels or -partial-credit, not -task-spec, for a problem
// with the spec's option that one of those flags set.
func (cl *commandLine) viaSpec(err error) error {
	var fe *trainer.FieldError
	if !errors.As(err, &fe) || err != error(fe) || fe.Field != "task_spec" || cl.changed("task-spec") {
		return err
	}
	if f, ok := calcOptionFlags[fe.Option]; ok && cl.changed(f) {
		return &trainer.FieldError{Field: fe.Option, Problem: strings.TrimPrefix(fe.Problem, fe.Option+": "), Bare: true}
	}
	return err
}

// lowerKnob says how to lower the setting knob (a Config field's JSON
// name) with its flag: a number is lowered, a boolean turned off.
func lowerKnob(knob string) string {
	name := strings.ReplaceAll(knob, "_", "-")
	fs, _ := newFlagSet()
	if f := fs.Lookup(name); f != nil && f.Value.Type() == "bool" {
		return "turn it off with -" + name + "=false"
	}
	return "lower -" + name
}

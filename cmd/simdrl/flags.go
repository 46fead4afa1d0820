package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"

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
}

// parseFlags reads the command line into a Config: the recipe's values, then
// every flag given explicitly on top. Both -flag and --flag spellings work.
// The returned override applies the explicit flags to another base config
// (a resumed checkpoint's).
func parseFlags(args []string, stdout io.Writer) (trainer.Config, error) {
	cfg, _, _, err := parseCommandLine(args, stdout)
	return cfg, err
}

// flagValues are where the flag set writes what the command line says.
type flagValues struct {
	threads       *int
	seed          *uint64
	recipe        *string
	task          *string
	levels        *string
	partialCredit *float64
	updates       *int
	batch         *int
	stages        *string
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
	mask          *bool
	entropyFinal  *float64
	decayUpdates  *int
	focus         *bool
	stopAt        *float64
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
	fs.StringVar(&o.fl.device, "device", "cpu", "where to train: cpu or cuda")
	o.threads = fs.Int("threads", runtime.NumCPU(), "CPU threads")
	o.seed = fs.Uint64("seed", def.Seed, "random seed: model init, tasks and sampling")
	o.task = fs.String("task", def.Task, "what to learn: seed (the reference's tool environment) or calc (a calculator that needs memory)")
	o.levels = fs.String("levels", "", "calc: the curriculum as comma-separated expressions over a, b, c, … with + - * and parentheses, each optionally :budget (default: the six levels of README)")
	o.partialCredit = fs.Float64("partial-credit", 0, "calc: reward weight of the expression's inner values held on the way (0: only correct answers earn; default recipe: 0.3)")
	o.recipe = fs.String("recipe", def.Recipe, "hyper-parameter recipe: default or seed (seed.py exactly); flags given explicitly override it")
	o.updates = fs.Int("updates", def.Updates, "training updates")
	o.batch = fs.Int("batch", def.Batch, "episodes per update")
	o.stages = fs.String("stages", joinInts(def.Stages), "stages to train: with -curriculum blocks, the stage of each equal block of updates (e.g. 0,0,0,1,1,2); with mixed, the set mixed in every batch")
	o.lr = fs.Float64("lr", def.LR, "Adam learning rate")
	o.hidden = fs.Int("hidden", def.Hidden, "GRU hidden size d")
	o.steps = fs.Int("steps", def.Steps, "tokens the policy writes per episode")
	o.entropy = fs.Float64("entropy-coef", def.EntropyCoef, "weight of the entropy bonus")
	o.value = fs.Float64("value-coef", def.ValueCoef, "weight of the value loss")
	o.clip = fs.Float64("clip", def.Clip, "gradient-norm clip")
	o.evalEvery = fs.Int("eval-every", def.EvalEvery, "greedy evaluation every N updates (0 disables)")
	o.evalBatch = fs.Int("eval-batch", def.EvalBatch, "episodes per stage in each periodic evaluation")
	o.final = fs.Int("final-episodes", def.FinalEpisodes, "episodes per stage in the final evaluation (0 disables)")
	o.explain = fs.Int("explain", def.Explain, "greedy samples per stage to explain at the end")
	o.chunk = fs.Int("chunk", def.Chunk, "episodes per chunk (the unit of work; decides the arithmetic, not -threads)")
	o.curriculum = fs.String("curriculum", def.Curriculum, "blocks: -stages as equal blocks of updates (seed); mixed: every batch mixes the unlocked stages")
	o.unlockAt = fs.Float64("unlock-at", def.UnlockAt, "mixed curriculum: unlock the next stage when the newest one's eval solve rate reaches this (0: all stages from the start)")
	o.baseline = fs.String("baseline", def.Baseline, "sum: advantage R − Σ_t value_t (seed); step: advantage R − value_t per step")
	o.mask = fs.Bool("mask-after-answer", def.MaskAfterAnswer, "leave the tokens after the first ANS out of the loss")
	o.entropyFinal = fs.Float64("entropy-final", def.EntropyFinal, "entropy coefficient decays linearly to this over the run (< 0: constant)")
	o.decayUpdates = fs.Int("entropy-updates", def.EntropyUpdates, "the entropy decay's length in updates, then -entropy-final holds (0: over -updates; calc default recipe: 6000)")
	o.focus = fs.Bool("focus", def.Focus, "mixed curriculum: draw stages in proportion to 0.1 + their last eval failure rate")
	o.stopAt = fs.Float64("stop-at", def.StopAt, "stop once an evaluation solves every stage at this rate and a confirming one (1000 episodes per stage) supports it at 99% confidence (0: never)")
	fs.StringVar(&o.fl.save, "save", "", "write a checkpoint (safetensors) to this file every -save-every updates and at the end")
	fs.IntVar(&o.fl.saveEvery, "save-every", 0, "with -save: also save every N updates (0: only at the end)")
	fs.StringVar(&o.fl.load, "load", "", "start from the weights of this checkpoint (not its optimiser or schedule)")
	fs.StringVar(&o.fl.resume, "resume", "", "continue the run saved in this checkpoint exactly where it stopped")
	fs.BoolVar(&o.fl.evalOnly, "eval-only", false, "with -load or -resume: evaluate and explain, no training")
	fs.StringVar(&o.fl.metrics, "metrics", "", "append one JSON line per evaluation to this file")
	fs.StringVar(&o.fl.plot, "plot", "", "draw the learning curves into this PNG file at the end")
	fs.StringVar(&o.fl.report, "report", "", "write a JSON report to this file")
	fs.BoolVar(&o.fl.quiet, "quiet", false, "print only the final lines")
	o.help = fs.BoolP("help", "h", false, "show this help")

	return fs, o
}

func parseCommandLine(args []string, stdout io.Writer) (trainer.Config, files, func(trainer.Config) (trainer.Config, error), error) {
	fs, o := newFlagSet()
	fail := func(err error) (trainer.Config, files, func(trainer.Config) (trainer.Config, error), error) {
		return trainer.Config{}, o.fl, nil, err
	}
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		// pflag names the long flag it was handed (--foo for -foo).
		msg := strings.Replace(err.Error(), "unknown flag: --", "unknown flag -", 1)
		if msg != err.Error() {
			msg += " (simdrl -h lists the flags)"
		}
		return fail(errors.New(msg))
	}
	if *o.help {
		fmt.Fprintf(stdout, "Usage: simdrl [flags]\n\nTrains the GRU actor-critic tool-use agent with batched REINFORCE.\n"+
			"Flags may be written -flag or --flag. Defaults are the default recipe's.\n\n%s", fs.FlagUsages())
		return fail(errHelp)
	}
	if fs.NArg() > 0 {
		return fail(fmt.Errorf("unexpected argument %q (flags only; see -h)", fs.Arg(0)))
	}
	switch {
	case engines[o.fl.device] == nil:
		return fail(fmt.Errorf("-device must be cpu or cuda, got %q", o.fl.device))
	case o.fl.load != "" && o.fl.resume != "":
		return fail(fmt.Errorf("-load and -resume exclude each other: -resume continues a run, -load only takes its weights"))
	case o.fl.evalOnly && o.fl.load == "" && o.fl.resume == "":
		return fail(fmt.Errorf("-eval-only needs a model: give -load FILE"))
	case o.fl.saveEvery < 0:
		return fail(fmt.Errorf("-save-every must be ≥ 0, got %d", o.fl.saveEvery))
	case o.fl.saveEvery > 0 && o.fl.save == "":
		return fail(fmt.Errorf("-save-every needs -save FILE"))
	}
	base, err := trainer.Recipe(*o.recipe)
	if err != nil {
		return fail(fmt.Errorf("-recipe: %v", err))
	}
	// The task's defaults are part of the recipe's values: flags given
	// explicitly override them too.
	base.Task, base.Levels = *o.task, *o.levels
	if base, err = trainer.WithTask(base); err != nil {
		return fail(errors.New(flagError(err)))
	}
	var stageList []int
	if fs.Changed("stages") {
		if stageList, err = parseStages(*o.stages); err != nil {
			return fail(err)
		}
	}
	override := func(cfg trainer.Config) (trainer.Config, error) {
		if fs.Changed("recipe") && o.fl.resume != "" && *o.recipe != cfg.Recipe {
			return cfg, fmt.Errorf("-recipe %s differs from the checkpoint's %s; -resume keeps the run's recipe", *o.recipe, cfg.Recipe)
		}
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
		set("mask-after-answer", func() { cfg.MaskAfterAnswer = *o.mask })
		set("entropy-final", func() { cfg.EntropyFinal = *o.entropyFinal })
		set("entropy-updates", func() { cfg.EntropyUpdates = *o.decayUpdates })
		set("focus", func() { cfg.Focus = *o.focus })
		set("stop-at", func() { cfg.StopAt = *o.stopAt })
		set("stages", func() { cfg.Stages = stageList })
		set("task", func() { cfg.Task = *o.task })
		set("levels", func() { cfg.Levels = *o.levels })
		set("partial-credit", func() { cfg.PartialCredit = *o.partialCredit })
		if err := cfg.Validate(); err != nil {
			return cfg, errors.New(flagError(err))
		}
		return cfg, nil
	}
	cfg, err := override(base)
	if err != nil {
		return fail(err)
	}
	return cfg, o.fl, override, nil
}

// normalizeArgs turns Go-style single-dash long flags (-threads 16,
// -lr=1e-3) into pflag's --threads, so both spellings work. A single dash
// followed by a letter and more is a long name, known or not (so -foo is an
// unknown flag, not the shorthand f); values such as -0.5 are left alone.
func normalizeArgs(args []string, fs *flag.FlagSet) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if len(a) > 2 && a[0] == '-' && isLetter(a[1]) {
			name, _, _ := strings.Cut(a[1:], "=")
			if len(name) > 1 || fs.Lookup(name) != nil {
				a = "-" + a
			}
		}
		out = append(out, a)
	}
	return out
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// parseStages reads a curriculum such as "0,0,0,1,1,2".
func parseStages(s string) ([]int, error) {
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
			return nil, fmt.Errorf("-stages: %q is not a stage number", f)
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

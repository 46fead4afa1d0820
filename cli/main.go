package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/gpu"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Exit codes: 0 done, 1 training failed or the task did (taskFault), 2 bad
// usage, 128+signal when interrupted (130 for Ctrl-C, 143 for SIGTERM).
const (
	exitFail  = 1
	exitUsage = 2
)

// run is the whole command; sigs delivers interruptions (nil: none).
func run(args []string, stdout, stderr io.Writer, sigs <-chan os.Signal) int {
	in := watch(sigs, stderr)
	defer in.end()
	milestone("watching")
	usage := func(format string, a ...any) int {
		code := exitUsage
		for i, v := range a {
			if err, ok := v.(error); ok {
				if taskFault(err) {
					code = exitFail // the task's bug: no flag is wrong
				}
				a[i] = flagError(err)
			}
		}
		// One line, always: a list of problems (a curriculum's) is joined.
		msg := strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", "; ")
		fmt.Fprintf(stderr, "simdrl: %s\n", msg)
		return code
	}
	cl, err := parseCommandLine(args, stdout)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		return usage("%v", err)
	}
	fl := cl.fl
	if err := kernels.CheckRequest(); err != nil {
		return usage("%v", err)
	}
	if fl.device == "cuda" {
		// Never falls back to the CPU: no usable GPU is a usage error.
		if err := gpu.Available(); err != nil {
			return usage("-device cuda: %v", err)
		}
	}
	// Every output is checked before any work, the plot's name included, so
	// that no run is lost to a path it cannot write at the end; none may be
	// an input.
	outs := []output{{"-report", fl.report}, {"-save", fl.save}, {"-metrics", fl.metrics}, {"-plot", fl.plot}}
	if err := checkOutputs(outs, []output{{"-load", fl.load}, {"-resume", fl.resume}}); err != nil {
		return usage("%v", err)
	}
	if err := checkPlotName(fl.plot); err != nil {
		return usage("%v", err)
	}
	if fl.tensorboard != "" {
		if err := checkTensorBoard(fl.tensorboard, outs, fl.resume != ""); err != nil {
			return usage("%v", err)
		}
	}

	// The config: the checkpoint's after -resume (flags given explicitly on
	// top), the recipe's otherwise, with a -load checkpoint's task, levels
	// and width unless flags say otherwise. A checkpoint's levels are parsed
	// (and searched) once, interruptibly, before anything else uses them.
	var cfg trainer.Config
	var resume, load *checkpoint.File
	var loaded *trainer.Config // the -load checkpoint's config, when it has one
	var loadedErr error        // why it has none: the hint of a shape error
	switch {
	case fl.resume != "":
		if resume, err = checkpoint.ReadFile(fl.resume); err != nil {
			return usage("-resume: %v", err)
		}
		saved, err := trainer.ReadCheckpointConfig(resume)
		if err == nil {
			prepareTask(saved, stderr)
			err = cl.task.validate(saved)
		}
		if err != nil {
			return usage("-resume %s: %v", fl.resume, checkpointConfigError(err))
		}
		prepareFlagTask(cl, saved, stderr)
		if cfg, err = cl.resumed(saved); err != nil {
			if msg, ok := cl.otherTask(fl.resume, saved); ok {
				return usage("%s", msg)
			}
			return usage("-resume %s: %v", fl.resume, err)
		}
	case fl.load != "":
		if load, err = checkpoint.ReadFile(fl.load); err != nil {
			return usage("-load: %v", err)
		}
		// A file whose config cannot be read gives only its weights; one
		// whose config reads is applied, so it is validated as -resume's.
		if saved, err := trainer.ReadCheckpointConfig(load); err == nil {
			prepareTask(saved, stderr)
			if err := cl.task.validate(saved); err != nil {
				return usage("-load %s: %v", fl.load, checkpointConfigError(err))
			}
			loaded = &saved
		} else {
			loadedErr = err
		}
		prepareFlagTask(cl, trainer.Config{}, stderr)
		if cfg, err = cl.fresh(loaded); err != nil {
			return usage("%v", err)
		}
	default:
		prepareFlagTask(cl, trainer.Config{}, stderr)
		if cfg, err = cl.fresh(nil); err != nil {
			return usage("%v", err)
		}
	}
	tr, engine, err := openTrainer(fl.device, cfg, &cl.task)
	if err != nil && fl.device == "cpu" {
		return usage("%v", err)
	} else if err != nil {
		return usage("-device %s: %v", fl.device, err)
	}
	switch {
	case resume != nil:
		if err := tr.Restore(resume); err != nil {
			engine.Close()
			saved, _ := trainer.ReadCheckpointConfig(resume)
			if msg, ok := cl.otherTask(fl.resume, saved); ok {
				return usage("%s", msg)
			}
			var se *trainer.ShapeError
			if errors.As(err, &se) {
				return usage("-resume %s: %v (%s)", fl.resume, se.Error(), loadHint(&saved, cfg, se))
			}
			if flags, was := cl.stateChanges(saved, cfg); len(flags) > 0 {
				return usage("-resume %s: %s: the checkpoint was trained with %s, and its saved state does not fit (%v); -load %s starts a new run from its weights",
					fl.resume, strings.Join(flags, " and "), strings.Join(was, " and "), err, fl.resume)
			}
			return usage("-resume %s: %v", fl.resume, err)
		}
	case load != nil:
		if err := tr.LoadWeights(load); err != nil {
			engine.Close()
			var se *trainer.ShapeError
			if errors.As(err, &se) {
				hint := loadHint(loaded, cfg, se)
				if loadedErr != nil {
					hint = "only its weights were read, its " + loadedErr.Error() + "; " + hint
				}
				return usage("-load %s: %v (%s)", fl.load, se.Error(), hint)
			}
			return usage("-load %s: %v", fl.load, err)
		}
	}
	if err := checkPlan(cl, cfg, tr.Updates()); err != nil {
		engine.Close()
		return usage("%v", err)
	}
	if t, err := cl.task.open(cfg); err == nil {
		if err := task.Guard(cfg.Task, "opened", func() error { warnOrder(stderr, cfg, t); return nil }); err != nil {
			engine.Close()
			return usage("%v", err)
		}
	}
	if fl.evalOnly {
		milestone("running")
		in.running.Store(true)
		rep, err := trainer.Drive(tr, stdout, trainer.Options{EvalOnly: true, Quiet: fl.quiet, Interrupt: in.stop, Exhaustive: fl.exhaustiveOption()})
		finishing(in)
		code := finish(fl, rep, err, stderr)
		if in.stopped() {
			return in.code()
		}
		return code
	}

	opt := trainer.Options{SaveEvery: fl.saveEvery, Quiet: fl.quiet, Interrupt: in.stop, Exhaustive: fl.exhaustiveOption()}
	if f, ok := terminal(stderr); ok {
		opt.Progress = stderr // a pipe or a file gets no status line
		tw, stop := watchWidth(f)
		defer stop()
		opt.ProgressWidth = tw.width
	}
	savedAt := -1 // the update the last checkpoint written holds
	if fl.save != "" {
		opt.Save = func() error {
			f, err := tr.Checkpoint()
			if err != nil {
				return err
			}
			if err := checkpoint.WriteFile(fl.save, f); err != nil {
				return err
			}
			savedAt = tr.Updates()
			return nil
		}
	}
	if fl.metrics != "" {
		// A FIFO's open waits for a reader; a signal meanwhile exits at once.
		mf, err := openMetrics(fl.metrics, stderr)
		if err != nil {
			engine.Close()
			return usage("-metrics: %v", err)
		}
		defer mf.Close()
		opt.Metrics = mf
	}
	if fl.tensorboard != "" {
		tb, err := openTensorBoard(fl.tensorboard, stderr)
		if err != nil {
			engine.Close()
			return usage("-tensorboard: %v", err)
		}
		defer tb.Close()
		opt.Evaluated = tb.evaluated
	}
	opt.Reporter = trainer.Console(tr, stdout, opt) // the command's rendering of the run
	if hooks.updated != nil {
		hookUpdates(opt.Reporter, in.stop)
	}
	milestone("running")
	in.running.Store(true)
	rep, runErr := trainer.Drive(tr, stdout, opt)
	finishing(in)
	code := finish(fl, rep, runErr, stderr)
	var oe *trainer.OutputError
	stoppedEarly := errors.Is(runErr, trainer.ErrInterrupted) || errors.As(runErr, &oe)
	if stoppedEarly && rep != nil && savedAt == rep.Updates {
		fmt.Fprintf(stderr, "simdrl: checkpoint after update %d in %s; continue with -resume %s\n", rep.Updates, fl.save, fl.save)
	}
	if in.stopped() {
		return in.code() // wherever the signal came, the report and plot included
	}
	return code
}

// testHookFinishing, when set (by tests), runs after Drive returns, before
// the report and the plot are written: a signal delivered there arrives
// while they are.
var testHookFinishing func(in *interrupts)

func finishing(in *interrupts) {
	if testHookFinishing != nil {
		testHookFinishing(in)
	}
}

// checkPlan refuses, before any work, what the configuration that will run
// contradicts: an explicit -updates not above the updates a resumed run has
// done, a -plot of a run that makes no evaluation. (A complete run resumed
// without -updates only evaluates, as -eval-only would.)
func checkPlan(cl *commandLine, cfg trainer.Config, done int) error {
	fl := cl.fl
	if fl.evalOnly {
		return nil
	}
	if fl.resume != "" && cl.changed("updates") && cfg.Updates <= done {
		return fmt.Errorf("-updates %d is not above the %d updates the checkpoint has done: nothing would train (-eval-only evaluates it)", cfg.Updates, done)
	}
	if fl.plot != "" && (cfg.EvalEvery == 0 || cfg.Updates/cfg.EvalEvery <= done/cfg.EvalEvery) {
		return fmt.Errorf("-plot: this run makes no evaluations to draw (it needs -eval-every > 0 and at most the updates it trains, %d)", cfg.Updates-done)
	}
	return nil
}

// checkpointConfigError phrases an invalid checkpoint config: its fields are
// the file's, not flags.
func checkpointConfigError(err error) error {
	var fe *trainer.FieldError
	if errors.As(err, &fe) && err == error(fe) {
		return &phrasedError{msg: "checkpoint config: " + fe.Error(), fault: taskFault(err)}
	}
	return &phrasedError{msg: err.Error(), fault: taskFault(err)}
}

// finish writes the plot and the report (with what failed, the plot
// included) and turns the run's error into an exit code.
func finish(fl files, rep *trainer.Report, runErr error, stderr io.Writer) int {
	code := 0
	if runErr != nil && !errors.Is(runErr, trainer.ErrInterrupted) {
		fmt.Fprintf(stderr, "simdrl: %v\n", runErr)
		code = exitFail
	}
	if rep == nil {
		return code
	}
	rep.Device = fl.device
	// The plot first, so that the report says whether it failed.
	if fl.plot != "" {
		if err := writePlot(fl.plot, rep); err != nil {
			fmt.Fprintf(stderr, "simdrl: %v\n", err)
			code = exitFail
			rep.Error = strings.TrimPrefix(rep.Error+"; "+err.Error(), "; ")
		}
	}
	if fl.report != "" {
		if err := writeReport(fl.report, rep); err != nil {
			fmt.Fprintf(stderr, "simdrl: -report: %v\n", err)
			code = exitFail
		}
	}
	return code
}

// engines builds a training engine by its -device name for a config and its
// task, opened (and so validated) once by the command. Every engine
// implements trainer.Engine; a new one is a new line here.
var engines = map[string]func(trainer.Config, task.Task) (trainer.Engine, error){
	"cpu": func(cfg trainer.Config, t task.Task) (trainer.Engine, error) {
		e, err := cpu.NewOpened(cfg, t)
		if err != nil {
			return nil, err // not a nil *cpu.Engine inside a non-nil interface
		}
		return e, nil
	},
	"cuda": gpu.NewOpened,
}

// openTrainer builds the device's engine for cfg and its task, opened
// once (o), and the trainer that drives the engine (closing the engine is
// the caller's, or Drive's).
func openTrainer(device string, cfg trainer.Config, o *openedTask) (*trainer.Trainer, trainer.Engine, error) {
	t, err := o.open(cfg)
	if err != nil {
		return nil, nil, err
	}
	var e trainer.Engine
	err = task.Guard(cfg.Task, "opened", func() error { // an engine sizes itself by the task's code
		e, err = engines[device](cfg, t)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	tr, err := trainer.New(cfg, t, e)
	if err != nil {
		e.Close()
		return nil, nil, err
	}
	return tr, e, nil
}

// flagError phrases an engine's error for the command line: a refused
// resource names the flag that lowers it.
func flagError(err error) string {
	var fe *trainer.FieldError
	if errors.As(err, &fe) && err == error(fe) {
		flag := "-" + strings.ReplaceAll(fe.Field, "_", "-")
		msg := flag + " " + fe.Problem
		if fe.Bare {
			msg = flag + ": " + fe.Problem
		}
		if fe.Hint != "" {
			msg += ": " + fe.Hint
		}
		return msg
	}
	var spe *task.SpecError
	if errors.As(err, &spe) && err == error(spe) {
		// Only calc's levels and partial_credit have flags; any other
		// option is one of -task-spec's.
		if f, ok := calcOptionFlags[spe.Key]; ok {
			return "-" + f + ": " + spe.Err.Error()
		}
		if spe.Key == "task_spec" {
			return "-task-spec: " + spe.Err.Error()
		}
		return "-task-spec: " + spe.Error()
	}
	var se *trainer.ShapeError
	if errors.As(err, &se) {
		return err.Error() + " (check -hidden)"
	}
	var re *trainer.ResourceError
	if errors.As(err, &re) {
		return fmt.Sprintf("this run needs %s of memory and %s is available: %s", enginekit.FormatBytes(re.Need), enginekit.FormatBytes(re.Have), lowerKnob(re.Knob))
	}
	return err.Error()
}

// loadHint says how to make a model of a -load checkpoint's shape: the flags
// its saved configuration (nil: it has none) differs in (task, levels, hidden
// width), else what the tensor se that does not fit says (shapeHint).
func loadHint(saved *trainer.Config, cfg trainer.Config, se *trainer.ShapeError) string {
	if saved == nil {
		return shapeHint(se, cfg.Task)
	}
	var flags []string
	if saved.Task != cfg.Task {
		flags = append(flags, "-task "+saved.Task)
	}
	savedLevels := optionOf(*saved, levelsOption)
	same := sameOption(saved.Task, levelsOption, savedLevels, optionOf(cfg, levelsOption))
	if !same && savedLevels == "" {
		flags = append(flags, "the default levels (no -levels)")
	} else if !same {
		flags = append(flags, "-levels '"+savedLevels+"'")
	}
	if !takesOption(saved.Task, levelsOption) && saved.Task == cfg.Task && saved.TaskSpec != cfg.TaskSpec {
		flags = append(flags, "-task-spec '"+saved.TaskSpec+"'")
	}
	if obs := optionOf(*saved, "observe"); takesOption(saved.Task, levelsOption) && saved.Task == cfg.Task && obs != optionOf(cfg, "observe") {
		flags = append(flags, "observe="+cmp.Or(obs, "auto")+" (in -task-spec)")
	}
	if saved.Hidden != cfg.Hidden {
		flags = append(flags, fmt.Sprintf("-hidden %d", saved.Hidden))
	}
	if len(flags) == 0 {
		return shapeHint(se, cfg.Task)
	}
	return "it was trained with " + strings.Join(flags, " and ")
}

// shapeHint says what a checkpoint's model differs in from the run's, from
// the first tensor that does not fit (the model's first is emb.weight, so a
// width shows there): its width, or the task's tokens, levels or
// observations, which a user's task may change under the same name and
// spec.
func shapeHint(se *trainer.ShapeError, taskName string) string {
	got, want := se.Got, se.Want
	if len(got) != 2 || len(want) != 2 {
		return "check -hidden"
	}
	if got[1] != want[1] {
		return fmt.Sprintf("the checkpoint's model is %d wide, this run's %d: check -hidden", got[1], want[1])
	}
	what := map[string]string{"emb.weight": "tokens", "stage_emb.weight": "levels", "obs_emb.weight": "observation tokens"}[se.Tensor]
	if what == "" {
		return "check -hidden"
	}
	return fmt.Sprintf("the %s task has %d %s, the checkpoint's model %d: the task changed since it was saved", taskName, want[0], what, got[0])
}

// otherTask is the message of a -resume of a checkpoint of the saved config
// with -task naming another task: whatever else does not fit (its levels,
// its item state, its model's shape) follows from that, so the task is named
// first and alone.
func (cl *commandLine) otherTask(path string, saved trainer.Config) (string, bool) {
	other := cl.fs.Lookup("task").Value.String()
	if !cl.changed("task") || other == saved.Task {
		return "", false
	}
	return fmt.Sprintf("-resume %s: -task %s: the checkpoint was trained on the %s task, which -resume continues; -load %s starts a new run from its weights",
		path, other, saved.Task, path), true
}

// stateChanges lists the flags given explicitly that make cfg differ from
// a checkpoint's saved config in what its saved state holds (the task and
// its spec, the width, the context, the item state), each with what the
// checkpoint was trained with.
func (cl *commandLine) stateChanges(saved, cfg trainer.Config) (flags, was []string) {
	add := func(flag, now, then string) {
		flags, was = append(flags, flag+" "+now), append(was, then)
	}
	spec := func(s string) string {
		if s == "" {
			return "its default spec"
		}
		return "task_spec '" + s + "'"
	}
	switch {
	case cl.changed("task") && cfg.Task != saved.Task:
		add("-task", cfg.Task, "task "+saved.Task)
	case !sameSpec(cfg.Task, cfg.TaskSpec, saved.TaskSpec):
		for _, f := range []string{"task-spec", "levels", "partial-credit"} {
			if cl.changed(f) {
				add("-"+f, "'"+cl.fs.Lookup(f).Value.String()+"'", spec(saved.TaskSpec))
				break
			}
		}
	}
	if cl.changed("hidden") && cfg.Hidden != saved.Hidden {
		add("-hidden", fmt.Sprint(cfg.Hidden), fmt.Sprintf("hidden %d", saved.Hidden))
	}
	if cl.changed("context") && cfg.Context != saved.Context {
		add("-context", *cl.o.context, "context "+cmp.Or(saved.Context, trainer.ContextBag))
	}
	if cl.changed("replay") && cfg.Replay != saved.Replay {
		add("-replay", fmt.Sprint(cfg.Replay), fmt.Sprintf("replay %d", saved.Replay))
	}
	if cl.changed("item-focus") && cfg.ItemFocus != saved.ItemFocus {
		add("-item-focus", fmt.Sprint(cfg.ItemFocus), fmt.Sprintf("item_focus %v", saved.ItemFocus))
	}
	return flags, was
}

// isTerminal reports whether w is a character device (a live progress line
// is drawn there; a pipe or file gets plain lines).
func isTerminal(w io.Writer) bool {
	_, ok := terminal(w)
	return ok
}

// terminal is the terminal w writes to, if it does.
func terminal(w io.Writer) (*os.File, bool) {
	f, ok := w.(*os.File)
	if c, isConsole := w.(*console); isConsole {
		f, ok = c.file()
	}
	if !ok {
		return nil, false
	}
	fi, err := f.Stat()
	return f, err == nil && fi.Mode()&os.ModeCharDevice != 0
}

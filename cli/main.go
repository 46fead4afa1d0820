package cli

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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

// run is the whole train command; sigs delivers interruptions (nil: none).
// It reads the command line, resolves the run's config (resolveConfig),
// opens its engine (openEngine) and outputs (openOutputs), drives the run
// and finishes it (finish): the report, the plot and the exit code.
func run(args []string, stdout, stderr io.Writer, sigs <-chan os.Signal) int {
	in := watch(sigs, stderr)
	defer in.end()
	milestone("watching")
	cl, err := parseCommandLine(args, stdout)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		return usage(stderr, "%v", err)
	}
	fl := cl.fl
	if !fl.evalOnly {
		in.training(fl.save) // the first signal's message says where the run goes
	}
	if err := checkRequest(cl); err != nil {
		return usageOf(stderr, err)
	}
	rc, err := resolveConfig(cl, stderr)
	if err != nil {
		return usageOf(stderr, err)
	}
	tr, engine, err := openEngine(cl, rc, stderr)
	if err != nil {
		return usageOf(stderr, err)
	}
	if fl.evalOnly {
		milestone("running")
		in.running.Store(true)
		rep, err := trainer.Drive(tr, stdout, fl.sampledOptions(trainer.Options{EvalOnly: true, Quiet: fl.quiet, Interrupt: in.stop, Exhaustive: fl.exhaustiveOption()}))
		finishing(in)
		code := finish(fl, rep, err, stderr)
		if in.stopped() {
			return in.code()
		}
		return code
	}
	out, err := openOutputs(fl, tr, stdout, stderr, in.stop)
	if err != nil {
		engine.Close()
		return usageOf(stderr, err)
	}
	defer out.close()
	milestone("running")
	in.running.Store(true)
	rep, runErr := trainer.Drive(tr, stdout, out.opt)
	finishing(in)
	code := finish(fl, rep, runErr, stderr)
	var oe *trainer.OutputError
	stoppedEarly := errors.Is(runErr, trainer.ErrInterrupted) || errors.As(runErr, &oe)
	if stoppedEarly && rep != nil && out.savedAt == rep.Updates {
		fmt.Fprintf(stderr, "simdrl: checkpoint after update %d in %s; continue with -resume %s\n", rep.Updates, fl.save, fl.save)
	}
	if errors.Is(runErr, trainer.ErrInterrupted) && rep != nil && fl.save == "" {
		fmt.Fprintf(stderr, "simdrl: stopped after update %d with nothing saved: run with -save FILE to keep an interrupted run, and -resume FILE to continue it\n", rep.Updates)
	}
	if in.stopped() {
		return in.code() // wherever the signal came, the report and plot included
	}
	return code
}

// checkRequest refuses, before anything is read, what the machine cannot
// do (the kernels asked for, a GPU) and outputs that cannot be written:
// every output is checked before any work, the plot's name included, so
// that no run is lost to a path it cannot write at the end; none may be an
// input.
func checkRequest(cl *commandLine) error {
	fl := cl.fl
	if err := kernels.CheckRequest(); err != nil {
		return usageErrorf("%v", err)
	}
	if fl.device == "cuda" {
		// Never falls back to the CPU: no usable GPU is a usage error.
		if err := gpu.Available(); err != nil {
			return usageErrorf("-device cuda: %v", err)
		}
	}
	outs := []output{{"-report", fl.report}, {"-save", fl.save}, {"-metrics", fl.metrics}, {"-plot", fl.plot}}
	if err := checkOutputs(outs, []output{{"-load", fl.load}, {"-resume", fl.resume}}); err != nil {
		return usageErrorf("%v", err)
	}
	if err := checkPlotName(fl.plot); err != nil {
		return usageErrorf("%v", err)
	}
	if fl.tensorboard != "" {
		if err := checkTensorBoard(fl.tensorboard, outs, fl.resume != ""); err != nil {
			return usageErrorf("%v", err)
		}
	}
	return nil
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

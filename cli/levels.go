package cli

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// The command line's own flags that set one option of a task's spec, by
// the option's key (task.SpecEditor: the calc task's -levels and
// -partial-credit).
const (
	levelsOption        = "levels"
	partialCreditOption = "partial_credit"
)

// prepareTask parses cfg's task once, before anything else opens it: a calc
// curriculum's levels are searched here (its task.SpecEditor's Prepare),
// where a slow search reports its progress on a terminal; later openings of
// the same levels are served from env/calc's cache. A bad spec is reported
// by the config's validation, in the words of the flag or checkpoint field
// that holds it. (A signal during the search exits at once: see
// interrupts.)
func prepareTask(cfg trainer.Config, stderr io.Writer) {
	ed := task.SpecEditorOf(cfg.Task)
	if ed == nil {
		return
	}
	var progress func(string)
	if isTerminal(stderr) {
		progress = func(msg string) { fmt.Fprintf(stderr, "simdrl: %s\n", msg) }
	}
	milestone("searching")
	ed.Prepare(cfg.TaskSpec, progress)
}

// prepareFlagTask prepares the task the flags name, when they name one
// explicitly (-task, -levels, -task-spec); base is the config they apply to.
func prepareFlagTask(cl *commandLine, base trainer.Config, stderr io.Writer) {
	if !cl.changed("task") && !cl.changed("levels") && !cl.changed("task-spec") {
		return
	}
	if cl.changed("task") {
		base.Task = *cl.o.task
		base.TaskSpec = ""
	}
	if cl.changed("levels") {
		_ = setOption(&base, levelsOption, *cl.o.levels)
	}
	if cl.changed("task-spec") {
		base.TaskSpec = *cl.o.taskSpec
	}
	if base.Task == "" {
		base.Task = *cl.o.task
	}
	prepareTask(base, stderr)
}

// takesOption reports whether the task name takes the option key from a
// command-line flag (its task.SpecEditor's FlagOptions).
func takesOption(name, key string) bool {
	ed := task.SpecEditorOf(name)
	return ed != nil && slices.Contains(ed.FlagOptions(), key)
}

// optionOf is the option key of cfg's spec as the spec writes it: "" for
// its default, for a task that has no such option, or for a spec that does
// not parse (its validation says why).
func optionOf(cfg trainer.Config, key string) string {
	if ed := task.SpecEditorOf(cfg.Task); ed != nil {
		return ed.Option(cfg.TaskSpec, key)
	}
	return ""
}

// setOption sets the option key of cfg's spec (-levels, -partial-credit);
// the spec is written even when the value is refused, with the error.
func setOption(cfg *trainer.Config, key, value string) error {
	ed := task.SpecEditorOf(cfg.Task)
	if ed == nil {
		return &task.SpecError{Key: key, Err: fmt.Errorf("the %s task takes no %s", cfg.Task, key)}
	}
	spec, err := ed.WithOption(cfg.TaskSpec, key, value)
	cfg.TaskSpec = spec
	return err
}

// formatFloat writes a flag's float in the shortest form that parses back
// to the same bits.
func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// sameOption reports whether two values of the option key of the task name
// are the same however spelled (calc's levels: a*b and (b*a) are one
// level); values the task cannot take are compared as written.
func sameOption(name, key, a, b string) bool {
	if a == b {
		return true
	}
	ed := task.SpecEditorOf(name)
	if ed == nil {
		return false
	}
	sa, errA := ed.WithOption("", key, a)
	sb, errB := ed.WithOption("", key, b)
	return errA == nil && errB == nil && ed.Same(sa, sb)
}

// shapeOf is the part of cfg's spec that shapes the model (its
// task.SpecEditor's Shape): what a run takes from a -load checkpoint's
// config (a calc run its levels and whether it observes; the recipe gives
// the partial credit). A task without an editor keeps its whole spec.
func shapeOf(cfg trainer.Config) string {
	if ed := task.SpecEditorOf(cfg.Task); ed != nil {
		return ed.Shape(cfg.TaskSpec)
	}
	return cfg.TaskSpec
}

// flagSpec is the spec the flags give a fresh run of the task name before
// the recipe's defaults: -task-spec, or the task's options that flags set
// (-levels; refused by checkOptionFlags for a task that takes none).
func (cl *commandLine) flagSpec(name string) string {
	if cl.changed("task-spec") {
		return *cl.o.taskSpec
	}
	cfg := trainer.Config{Task: name}
	if cl.changed("levels") {
		_ = setOption(&cfg, levelsOption, *cl.o.levels)
	}
	return cfg.TaskSpec
}

// checkOptionFlags refuses -levels and -partial-credit for a run of a task
// that does not take them (task.SpecEditor's FlagOptions), in one line
// that names the flag and the tasks that do.
func (cl *commandLine) checkOptionFlags(taskName string) error {
	for _, f := range []struct{ flag, key, seedWhy string }{
		{"levels", levelsOption, "the seed task's levels are fixed"},
		{"partial-credit", partialCreditOption, "the seed task's reward is the reference's"},
	} {
		// Any explicit value, the defaults too: -partial-credit 0 must not
		// rewrite another task's spec as a calc one.
		if !cl.changed(f.flag) || takesOption(taskName, f.key) {
			continue
		}
		why := "the " + taskName + " task takes -task-spec"
		if taskName == "seed" {
			why = f.seedWhy
		}
		var takers []string
		for _, n := range task.Names() {
			if takesOption(n, f.key) {
				takers = append(takers, n)
			}
		}
		return fmt.Errorf("-%s applies to the %s task (%s)", f.flag, strings.Join(takers, " and "), why)
	}
	return nil
}

// sameSpec reports whether two specs of the task name are the same options
// however spelled (its task.SpecEditor's Same: calc's levels compared
// canonically, expr's as its spec writes them back); specs that do not
// parse, and the specs of a task without an editor, are compared as
// written.
func sameSpec(name, a, b string) bool {
	if a == b {
		return true
	}
	ed := task.SpecEditorOf(name)
	return ed != nil && ed.Same(a, b)
}

package cli

import (
	"fmt"
	"io"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/exprtask"
	"github.com/simdrl/simdrl/trainer"
)

// prepareTask parses cfg's task once, before anything else opens it: a calc
// curriculum's levels are searched here, where a slow search reports its
// progress on a terminal; later openings of the same levels are served from
// env/calc's cache. A bad spec is reported by the config's validation, in
// the words of the flag or checkpoint field that holds it. (A signal during
// the search exits at once: see interrupts.)
func prepareTask(cfg trainer.Config, stderr io.Writer) {
	if cfg.Task != "calc" {
		return
	}
	var opt calc.ParseOptions
	if isTerminal(stderr) {
		opt.Progress = func(msg string) { fmt.Fprintf(stderr, "simdrl: %s\n", msg) }
	}
	_, _ = calctask.CalcWith(calcSpecOf(cfg).Levels, 0, opt)
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
		setCalc(&base, func(s *calctask.CalcSpec) { s.Levels = *cl.o.levels })
	}
	if cl.changed("task-spec") {
		base.TaskSpec = *cl.o.taskSpec
	}
	if base.Task == "" {
		base.Task = *cl.o.task
	}
	prepareTask(base, stderr)
}

// sameLevels reports whether two curricula are the same levels, however
// spelled ("" is the default): calc.CanonicalSpec compares a*b and (b*a) as
// one level. Specs that do not parse are compared as written.
func sameLevels(a, b string) bool {
	canon := func(spec string) string {
		if spec == "" {
			spec = calc.DefaultLevelsSpec
		}
		if c, err := calc.CanonicalSpec(spec); err == nil {
			return c
		}
		return spec
	}
	return a == b || canon(a) == canon(b)
}

// calcSpecOf is the calc options of cfg's spec: none for another task, or
// for a spec that does not parse (its validation says why).
func calcSpecOf(cfg trainer.Config) calctask.CalcSpec {
	if cfg.Task != "calc" {
		return calctask.CalcSpec{}
	}
	s, _ := calctask.ParseCalcSpec(cfg.TaskSpec)
	return s
}

// setCalc changes the calc options of cfg's spec (-levels, -partial-credit).
func setCalc(cfg *trainer.Config, change func(*calctask.CalcSpec)) {
	s := calcSpecOf(*cfg)
	change(&s)
	cfg.TaskSpec = s.String()
}

// levelsOnly is the spec a run takes from a -load checkpoint's config: a
// calc run its levels and whether it observes (both shape the model; the
// recipe gives the partial credit), another task its whole spec.
func levelsOnly(from trainer.Config) string {
	if from.Task != "calc" {
		return from.TaskSpec
	}
	s := calcSpecOf(from)
	return calctask.CalcSpec{Levels: s.Levels, Observe: s.Observe}.String()
}

// flagSpec is the spec the flags give a fresh run before the recipe's
// defaults: -task-spec, or calc's -levels.
func (cl *commandLine) flagSpec() string {
	if cl.changed("task-spec") {
		return *cl.o.taskSpec
	}
	return calctask.CalcSpec{Levels: *cl.o.levels}.String()
}

// checkCalcFlags refuses -levels and -partial-credit for a run of a task
// other than calc, in one line that names the flag.
func (cl *commandLine) checkCalcFlags(taskName string) error {
	if taskName == "calc" {
		return nil
	}
	why := map[bool][2]string{
		true:  {"the seed task's levels are fixed", "the seed task's reward is the reference's"},
		false: {"the " + taskName + " task takes -task-spec", "the " + taskName + " task takes -task-spec"},
	}[taskName == "seed"]
	// Any explicit value, the calc defaults too: -partial-credit 0 must not
	// rewrite another task's spec as a calc one.
	switch {
	case cl.changed("levels"):
		return fmt.Errorf("-levels applies to the calc task (%s)", why[0])
	case cl.changed("partial-credit"):
		return fmt.Errorf("-partial-credit applies to the calc task (%s)", why[1])
	}
	return nil
}

// sameSpec reports whether two specs of the task name are the same options
// however spelled (calc: levels compared canonically; expr: as its spec
// writes them back); specs that do not parse are compared as written.
func sameSpec(name, a, b string) bool {
	if a == b {
		return true
	}
	switch name {
	case "calc":
		sa, errA := calctask.ParseCalcSpec(a)
		sb, errB := calctask.ParseCalcSpec(b)
		return errA == nil && errB == nil && sameLevels(sa.Levels, sb.Levels) &&
			sa.PartialCredit == sb.PartialCredit && sa.Observe == sb.Observe
	case "expr":
		sa, errA := exprtask.ParseExprSpec(a)
		sb, errB := exprtask.ParseExprSpec(b)
		return errA == nil && errB == nil && sa.String() == sb.String()
	}
	return false
}

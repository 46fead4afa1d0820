package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// prepareTask parses cfg's task once, before anything else opens it: a calc
// curriculum's levels are searched here, where an interrupt stops the search
// and a slow one reports its progress on a terminal; later openings of the
// same levels are served from env/calc's cache. Only an interrupt is an
// error here: a bad spec is reported by the config's validation, in the
// words of the flag or checkpoint field that holds it.
func prepareTask(cfg trainer.Config, in *interrupts, stderr io.Writer) error {
	if cfg.Task != "calc" {
		return nil
	}
	opt := calc.ParseOptions{Interrupt: in.stop}
	if isTerminal(stderr) {
		opt.Progress = func(msg string) { fmt.Fprintf(stderr, "simdrl: %s\n", msg) }
	}
	if _, err := task.CalcWith(cfg.Levels, 0, opt); errors.Is(err, calc.ErrInterrupted) {
		return err
	}
	return nil
}

// prepareFlagTask prepares the task the flags name, when they name one
// explicitly (-task, -levels); base is the config they apply to.
func prepareFlagTask(cl *commandLine, base trainer.Config, in *interrupts, stderr io.Writer) error {
	if !cl.changed("task") && !cl.changed("levels") {
		return nil
	}
	if cl.changed("task") {
		base.Task = *cl.o.task
		base.Levels = ""
	}
	if cl.changed("levels") {
		base.Levels = *cl.o.levels
	}
	if base.Task == "" {
		base.Task = *cl.o.task
	}
	return prepareTask(base, in, stderr)
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

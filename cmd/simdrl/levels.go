package main

import (
	"io"

	"github.com/simdrl/simdrl/trainer"
)

// prepareTask parses cfg's task once, before anything else opens it: a calc
// curriculum's levels are searched here, where an interrupt stops the search
// and a slow one reports its progress on a terminal; later openings of the
// same levels are served from the parse cache.
func prepareTask(cfg trainer.Config, in *interrupts, stderr io.Writer) error {
	return nil // TODO(wire to calc.ParseLevelsWith)
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

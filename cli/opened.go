package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// openedTask is the task a run opens, once: task.Open (Config.OpenTask)
// validates it, and the config's defaults and checks, the engine and the
// trainer take it as it is. Asked again for the same task and spec, it
// gives it back; only another one (a flag that changes a checkpoint's task,
// a tuning that rewrites its spec) is opened anew.
type openedTask struct {
	name, spec string
	t          task.Task
}

// open is cfg's task, opened once.
func (o *openedTask) open(cfg trainer.Config) (task.Task, error) {
	if o.t != nil && o.name == cfg.Task && o.spec == cfg.TaskSpec {
		return o.t, nil
	}
	t, err := cfg.OpenTask()
	if err != nil {
		return nil, err
	}
	*o = openedTask{name: cfg.Task, spec: cfg.TaskSpec, t: t}
	return t, nil
}

// validate is cfg.Validate with the task opened once.
func (o *openedTask) validate(cfg trainer.Config) error {
	t, err := o.open(cfg)
	if err != nil {
		return err
	}
	return cfg.ValidateOpened(t)
}

// defaults is trainer.TaskDefaults of cfg and t, with a panic in t's code
// returned as an error (task.Guard).
func defaults(cfg trainer.Config, t task.Task) (trainer.Config, error) {
	out := cfg
	err := task.Guard(cfg.Task, "opened", func() error {
		out = trainer.TaskDefaults(cfg, t)
		return nil
	})
	return out, err
}

// taskFault reports whether err is a task's own bug, met while the
// command opened or checked it: a panic in its code (task.PanicError), an
// opener that returned no task or a task that breaks its contract
// (task.ViolationError). No flag is wrong: it exits 1, not 2.
func taskFault(err error) bool {
	var pe *task.PanicError
	var ve *task.ViolationError
	var ph *phrasedError
	var fe *trainer.FieldError
	return errors.As(err, &pe) || errors.As(err, &ve) || errors.As(err, &ph) && ph.fault ||
		errors.As(err, &fe) && fe.Err != nil && taskFault(fe.Err)
}

// phrasedError is an error said in the command line's words (flagError),
// which keeps whether it was a task's fault.
type phrasedError struct {
	msg   string
	fault bool
}

func (e *phrasedError) Error() string { return e.msg }

// phrase is err, met with cfg, in the command line's words (flagError),
// naming the flag that set the setting at fault (viaSpec: -levels for the
// spec's levels); a setting that no flag set in a run from the recipe
// (fromRecipe) was set by the task (its opener, its tuning, its levels'
// budgets), and is said to be the task's, naming no flag nobody typed.
func (cl *commandLine) phrase(err error, cfg trainer.Config) error {
	msg := flagError(cl.viaSpec(err))
	var fe *trainer.FieldError
	if errors.As(err, &fe) && err == error(fe) && cl.fromRecipe && !cl.typed(fe.Field) {
		switch {
		case fe.Field == "task":
		case fe.Field == "task_spec" && cfg.TaskSpec == "":
			msg = fmt.Sprintf("the %s task: %s", cfg.Task, fe.Problem)
		case fe.Field == "task_spec":
			msg = fmt.Sprintf("the %s task's spec %q: %s", cfg.Task, cfg.TaskSpec, fe.Problem)
		default:
			msg = fmt.Sprintf("the %s task's defaults: %s", cfg.Task, fe.Error())
		}
	}
	return &phrasedError{msg: msg, fault: taskFault(err)}
}

// typed reports whether the flag of the Config field (its JSON name) was
// given: for the task's spec, -task-spec or a flag that sets one of its
// options.
func (cl *commandLine) typed(field string) bool {
	if field == "task_spec" {
		return cl.changed("task-spec") || cl.changed("levels") || cl.changed("partial-credit")
	}
	return cl.changed(strings.ReplaceAll(field, "_", "-"))
}

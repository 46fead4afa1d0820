package cli

import (
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

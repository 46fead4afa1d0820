package cli

import (
	"errors"
	"strings"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// observeValues are the values of the observe option by which the built-in
// tasks choose what their model observes (countdown's token, vector and
// fields; calc's and tape's on, off and auto); a user's task that names the
// option alike is searched the same way.
var observeValues = []string{"token", "vector", "fields", "on", "off", "auto"}

// observationHint names, for err an enginekit.ObservationError, the
// -task-spec under which cfg's task makes a model that observes as the
// checkpoint f's does: the saved spec with another observe option. A
// checkpoint saved before a task's default observation changed (the 24
// Game's, token to vector) records no observe option, so its saved spec now
// makes another model.
// "" for another error, or when no observe value the task takes fits.
func observationHint(err error, saved *trainer.Config, cfg trainer.Config, f *checkpoint.File) string {
	var oe *enginekit.ObservationError
	if !errors.As(err, &oe) {
		return ""
	}
	spec := cfg.TaskSpec
	if saved != nil && saved.Task == cfg.Task {
		spec = saved.TaskSpec
	}
	for _, v := range observeValues {
		try := cfg
		var bad error
		if try.TaskSpec, bad = withObserve(cfg.Task, spec, v); bad != nil {
			continue // a value this task does not take (calc's editor refuses token)
		}
		if fits(try, f) {
			return "it was trained with observe=" + v + ": give -task-spec '" + try.TaskSpec + "'"
		}
	}
	return ""
}

// withObserve is spec with its observe option set to v: by the task's spec
// editor when it has one, else in the key=value syntax of task.SpecOptions.
func withObserve(name, spec, v string) (string, error) {
	if ed := task.SpecEditorOf(name); ed != nil {
		return ed.WithOption(spec, "observe", v)
	}
	opts, err := task.SpecOptions(spec, name)
	if err != nil {
		return "", err
	}
	out := make([]string, 0, len(opts)+1)
	for _, o := range opts {
		if o.Key != "observe" {
			out = append(out, o.Key+"="+o.Value)
		}
	}
	return strings.Join(append(out, "observe="+v), "; "), nil
}

// fits reports whether the model of cfg's task takes f's weights: the task
// opens with cfg's spec (a panic in its code is a no) and f's tensors load
// into its layout.
func fits(cfg trainer.Config, f *checkpoint.File) bool {
	return task.Guard(cfg.Task, "opened", func() error {
		t, err := cfg.OpenTask()
		if err != nil {
			return err
		}
		l, err := enginekit.NewLayout(cfg.Hidden, t)
		if err != nil {
			return err
		}
		return enginekit.LoadParams(f, l, make([]float32, l.Size))
	}) == nil
}

package task

import "sync"

// SpecEditor is what a command line, or a checkpoint from before task specs,
// needs of a task's spec before it opens the task: single options set from
// outside the spec's syntax (the calc task's -levels and -partial-credit,
// an old checkpoint's levels and partial_credit fields), specs compared
// however spelled, the part that shapes the model, and the slow part of
// opening done ahead. A task's package registers one beside its opener
// (RegisterSpecEditor); a task without one takes whole specs only
// (-task-spec), compared as written.
type SpecEditor interface {
	// FlagOptions are the options a command line's own flags may set
	// (WithOption's keys: "levels", "partial_credit"); nil for none.
	FlagOptions() []string
	// Option is the value of option key in spec as the spec writes it
	// ("" when left out, or when spec does not parse).
	Option(spec, key string) string
	// WithOption is spec with option key set to value (in the spec's own
	// syntax), or a SpecError naming key.
	WithOption(spec, key, value string) (string, error)
	// Same reports whether two specs are the same options however spelled.
	Same(a, b string) bool
	// Shape is the part of spec that shapes the model (a checkpoint loaded
	// with -load keeps it; the rest comes from the recipe).
	Shape(spec string) string
	// Prepare does the slow part of opening spec ahead (a curriculum's
	// search), reporting progress when progress is not nil; errors are
	// left to opening.
	Prepare(spec string, progress func(msg string))
}

var (
	editorsMu sync.RWMutex
	editors   = map[string]SpecEditor{}
)

// RegisterSpecEditor registers the spec editor of the task registered (or
// to be registered) as name. Call it from an init function; like Register
// it panics when e is nil or name already has one.
func RegisterSpecEditor(name string, e SpecEditor) {
	editorsMu.Lock()
	defer editorsMu.Unlock()
	switch {
	case e == nil:
		panic("task: RegisterSpecEditor of " + name + " with a nil editor")
	case editors[name] != nil:
		panic("task: RegisterSpecEditor called twice for " + name)
	}
	editors[name] = e
}

// SpecEditorOf is the spec editor registered for the task name, nil when
// none is.
func SpecEditorOf(name string) SpecEditor {
	editorsMu.RLock()
	defer editorsMu.RUnlock()
	return editors[name]
}

package task

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The registry maps a task's name (-task, a checkpoint's "task") to the
// function that opens it from its spec, as database/sql maps driver names.
var (
	registryMu sync.RWMutex
	openers    = map[string]func(spec string) (Task, error){}
)

// Register makes a task available by name to Open, and so to the engines'
// New, to checkpoints and to the command line: open returns the task for a
// spec (its options, in a syntax of the task's own; "" for its defaults).
// Call it from an init function. Like sql.Register it panics when open is
// nil or name is empty, already registered or not a name (NameRule: no
// spaces, control or escape codes): that is a programming error.
func Register(name string, open func(spec string) (Task, error)) {
	registryMu.Lock()
	defer registryMu.Unlock()
	switch {
	case open == nil:
		panic("task: Register of " + strconv.Quote(name) + " with a nil open function")
	case name == "":
		panic("task: Register with an empty name")
	case !validName(name):
		panic("task: Register of " + strconv.Quote(name) + ": " + NameRule)
	case openers[name] != nil:
		panic("task: Register called twice for " + name)
	}
	openers[name] = open
}

// Open opens the task registered as name with spec, and refuses one that
// can never train (Validate). A panic in the task's code meanwhile (its open
// function's, or a method's that Validate calls) is returned as a
// *PanicError that names the task, and an open function that returns
// neither a task nor an error as a *ViolationError.
func Open(name, spec string) (Task, error) {
	registryMu.RLock()
	open := openers[name]
	registryMu.RUnlock()
	if open == nil {
		return nil, &UnknownError{Name: name}
	}
	var t Task
	err := Guard(name, "opened", func() error {
		var err error
		if t, err = open(spec); err != nil {
			return err
		}
		if t == nil {
			return violation("the %s task's open function returned neither a task nor an error", name)
		}
		return validate(t)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Names are the registered tasks' names, sorted.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(openers))
	for n := range openers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// UnknownError is a name no task is registered under.
type UnknownError struct{ Name string }

func (e *UnknownError) Error() string {
	return fmt.Sprintf("unknown task %q (registered: %s)", e.Name, strings.Join(Names(), ", "))
}

// NameRule is what a task's name must be (Register, Validate): it is typed
// after -task, stored in checkpoints and printed by -h.
const NameRule = "a task's name is 1 to 64 ASCII letters, digits, '.', '_' or '-', beginning with a letter or digit"

// validName reports whether name follows NameRule.
func validName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i, c := range []byte(name) {
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || i > 0 && (c == '.' || c == '_' || c == '-')
		if !ok {
			return false
		}
	}
	return true
}

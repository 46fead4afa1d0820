package task

import (
	"fmt"
	"runtime/debug"
	"strconv"
)

// Guard calls f, which runs the code of the task name while it is opened
// or checked, and returns f's error, or a panic in it as a *PanicError that
// names the task and says what was being done (while: "opened"): so that a
// bug in a user's task is an error of the task, never a crash of the
// program that opens it. A *ViolationError panicked with is returned as it
// is (Checker.Panic).
func Guard(name, while string, f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			if ve, ok := v.(*ViolationError); ok {
				err = ve
				return
			}
			err = &PanicError{Task: name, While: while, Value: v, Stack: debug.Stack()}
		}
	}()
	return f()
}

// NameOf is t's name for an error about t, which cannot itself panic: its
// Name, quoted when it is not a name (NameRule), or its Go type when Name
// panics.
func NameOf(t Task) (name string) {
	defer func() {
		if recover() != nil {
			name = fmt.Sprintf("%T", t)
		}
	}()
	if name = t.Name(); !validName(name) {
		name = strconv.Quote(name)
	}
	return name
}

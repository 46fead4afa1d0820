package trainer

import (
	"runtime/debug"

	"github.com/simdrl/simdrl/task"
)

// recoverTask, deferred, turns a panic in t's code that the trainer called
// on its caller's goroutine (Draw, Score, Explain, DrawItem, …) into *err,
// an error that names the task, so that a program embedding the trainer
// is never killed by a task's bug. (The engines recover their workers'.)
func recoverTask(t task.Task, err *error) {
	if v := recover(); v != nil {
		*err = &task.PanicError{Task: task.NameOf(t), Value: v, Stack: debug.Stack()}
	}
}

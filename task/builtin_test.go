package task_test

// The tests open the built-in tasks by name, as the command does.
import _ "github.com/simdrl/simdrl/tasks/builtin"

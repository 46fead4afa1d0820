// Package builtin registers the tasks that ship with simdrl, by importing
// their plug-ins for their init functions: seed, calc, expr, tape,
// countdown3, countdown4 and game24. A program imports it for its side
// effect, as cmd/simdrl does:
//
//	import _ "github.com/simdrl/simdrl/tasks/builtin"
//
// A program with a task of its own imports that task's package instead (or
// as well).
package builtin

import (
	_ "github.com/simdrl/simdrl/tasks/calctask"
	_ "github.com/simdrl/simdrl/tasks/countdowntask"
	_ "github.com/simdrl/simdrl/tasks/exprtask"
	_ "github.com/simdrl/simdrl/tasks/seedtask"
	_ "github.com/simdrl/simdrl/tasks/tapetask"
)

// Command lock is simdrl's whole command line for the lock task
// (customtask.Lock, a task that needs observation): its main imports the task's
// package, which registers it, and hands the arguments to cli.Main with
// -task lock first when they are the train command's flags, so that the task
// is the default (a later -task still chooses another). A subcommand (sweep,
// report) is passed as it is; a sweep's spec names the task:
//
//	go run ./cmd/lock -report run.json
//	go run ./cmd/lock sweep plan lock.yaml -o lock.jsonl
package main

import (
	"os"
	"strings"

	"github.com/simdrl/simdrl/cli"
	_ "github.com/simdrl/simdrl/examples/customtask" // registers "lock"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		args = append([]string{"-task", "lock"}, args...)
	}
	os.Exit(cli.Main(args))
}

// Command reverse is simdrl's whole command line for the reverse task
// (customtask.Reverse, a task that needs memory): its main imports the task's
// package, which registers it, and hands the arguments to cli.Main with
// -task reverse first when they are the train command's flags, so that the task
// is the default (a later -task still chooses another). A subcommand (sweep,
// report) is passed as it is; a sweep's spec names the task:
//
//	go run ./cmd/reverse -report run.json
//	go run ./cmd/reverse sweep plan reverse.yaml -o reverse.jsonl
package main

import (
	"os"
	"strings"

	"github.com/simdrl/simdrl/cli"
	_ "github.com/simdrl/simdrl/examples/customtask" // registers "reverse"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		args = append([]string{"-task", "reverse"}, args...)
	}
	os.Exit(cli.Main(args))
}

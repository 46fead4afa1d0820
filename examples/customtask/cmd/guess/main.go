// Command guess is simdrl's whole command line for the guess task
// (customtask.Guess, a task written as a step function): its main imports
// the task's package, which registers it, and hands the arguments to
// cli.Main with -task guess first when they are the train command's flags,
// so that the task is the default (a later -task still chooses another). A
// subcommand (sweep, report, help) is passed as it is. Every flag, -save,
// -resume, -plot, -report and Ctrl-C work as in simdrl:
//
//	go run ./cmd/guess -updates 300 -save run.st -report run.json
//	go run ./cmd/guess sweep plan guess.yaml -o guess.jsonl
package main

import (
	"os"
	"strings"

	"github.com/simdrl/simdrl/cli"
	_ "github.com/simdrl/simdrl/examples/customtask" // registers "guess"
)

func main() {
	args := os.Args[1:]
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		args = append([]string{"-task", "guess"}, args...)
	}
	os.Exit(cli.Main(args))
}

// Command guess is simdrl's whole command line for the guess task
// (customtask.Guess, a task written as a step function): its main imports
// the task's package, which registers it, and hands the arguments to
// cli.Main with -task guess first, so that the task is the default (a later
// -task still chooses another). Every flag, -save, -resume, -plot, -report
// and Ctrl-C work as in simdrl:
//
//	go run ./cmd/guess -updates 300 -save run.st -report run.json
package main

import (
	"os"

	"github.com/simdrl/simdrl/cli"
	_ "github.com/simdrl/simdrl/examples/customtask" // registers "guess"
)

func main() { os.Exit(cli.Main(append([]string{"-task", "guess"}, os.Args[1:]...))) }

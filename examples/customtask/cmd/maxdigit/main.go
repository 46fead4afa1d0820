// Command maxdigit is simdrl's whole command line for the maxdigit task:
// its main imports the task's package, which registers it (task.Register),
// and hands the arguments to cli.Main, as a plug-in build of Caddy calls
// caddycmd.Main. Every flag, -save, -resume, -plot, -report and Ctrl-C work
// as in simdrl:
//
//	go run ./cmd/maxdigit -task maxdigit -updates 200 -save run.st
package main

import (
	"os"

	"github.com/simdrl/simdrl/cli"
	_ "github.com/simdrl/simdrl/examples/customtask" // registers "maxdigit"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }

// Command simdrl trains the GRU actor-critic tool-use agent with batched
// REINFORCE and a value baseline, in pure Go.
//
//	simdrl                           # the default recipe
//	simdrl -recipe seed              # seed.py's schedule and loss exactly
//	simdrl -device cpu -threads 16 -report run.json
//
// It is package cli's Main with the built-in tasks; a program that imports
// a task of its own and calls cli.Main gets the same command for it.
package main

import (
	"os"

	"github.com/simdrl/simdrl/cli"
	_ "github.com/simdrl/simdrl/tasks/builtin" // the built-in tasks: seed, calc, expr, tape
)

func main() { os.Exit(cli.Main(os.Args[1:])) }

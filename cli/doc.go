// Package cli is the simdrl command as a library: Main does everything
// `simdrl` does (every flag, checkpoints, -resume, -plot, -report, -metrics,
// -tensorboard, signals and exit codes) for every task registered with
// task.Register, so a program that imports a task package of its own and
// calls Main gets the whole command line for that task, as a plug-in build
// of Caddy calls caddycmd.Main:
//
//	package main
//
//	import (
//		"os"
//
//		"github.com/simdrl/simdrl/cli"
//		_ "example.com/mytask" // registers "mytask" in an init function
//	)
//
//	func main() { os.Exit(cli.Main(os.Args[1:])) }
//
// and then `mytask -task mytask -save run.st` trains it. cmd/simdrl is that
// program with the built-in tasks. Run is Main with the streams passed in.
//
// The first argument may name a subcommand (`simdrl help` lists them);
// flags alone are the train command. A package may add one with
// RegisterCommand from an init function, and every main that imports it
// gets it, as with Caddy's RegisterCommand.
//
// It is the only package that knows command-line flags, devices and output
// paths: it turns flags into a trainer.Config, opens its task and the engine
// named by -device from its engines table (cpu.NewWithTask,
// gpu.NewWithTask), wraps it in a trainer.Trainer (restoring or loading a
// checkpoint), hands that to trainer.Drive, and writes the checkpoint, report, metrics and plot through
// internal/atomicfile. Only commands import it.
package cli

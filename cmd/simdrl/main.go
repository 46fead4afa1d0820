// Command simdrl trains the GRU actor-critic tool-use agent with batched
// REINFORCE and a value baseline, in pure Go.
//
//	simdrl                           # the default recipe
//	simdrl -recipe seed              # seed.py's schedule and loss exactly
//	simdrl -device cpu -threads 16 -report run.json
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/simdrl/simdrl/trainer"
)

// Exit codes: 0 done, 1 training failed, 2 bad usage.
const (
	exitFail  = 1
	exitUsage = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	cfg, err := parseFlags(args, stdout)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "simdrl: %v\n", err)
		return exitUsage
	}
	if cfg.Device == "cuda" {
		fmt.Fprintln(stderr, "simdrl: -device cuda: this build has no CUDA backend yet; use -device cpu")
		return exitUsage
	}
	if cfg.Report != "" {
		if err := checkWritable(cfg.Report); err != nil {
			fmt.Fprintf(stderr, "simdrl: -report: %v\n", err)
			return exitUsage
		}
	}
	rep, runErr := trainer.Run(cfg, stdout)
	if rep != nil && cfg.Report != "" {
		if err := writeReport(cfg.Report, rep); err != nil {
			fmt.Fprintf(stderr, "simdrl: -report: %v\n", err)
			return exitFail
		}
	}
	if runErr != nil {
		fmt.Fprintf(stderr, "simdrl: %v\n", runErr)
		return exitFail
	}
	return 0
}

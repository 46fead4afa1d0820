package cli

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// sweepVerb is one of `simdrl sweep VERB …`'s verbs (plan, run, slurm, …),
// each in a file of its own that adds itself here from an init function.
type sweepVerb struct {
	summary string
	run     func(args []string, env Env) int
}

var (
	sweepVerbsMu sync.Mutex
	sweepVerbs   = map[string]sweepVerb{}
)

func addSweepVerb(name, summary string, run func(args []string, env Env) int) {
	sweepVerbsMu.Lock()
	defer sweepVerbsMu.Unlock()
	if _, dup := sweepVerbs[name]; dup || run == nil {
		panic("cli: sweep verb " + name + " added twice or with a nil run")
	}
	sweepVerbs[name] = sweepVerb{summary, run}
}

func init() {
	RegisterCommand(Command{Name: "sweep", Summary: "plan and run many runs: a grid or random draws over flags and seeds, on this machine or a cluster", Run: sweepCommand})
}

// sweepCommand runs `simdrl sweep VERB args…`.
func sweepCommand(args []string, env Env) int {
	sweepVerbsMu.Lock()
	names := make([]string, 0, len(sweepVerbs))
	for n := range sweepVerbs {
		names = append(names, n)
	}
	sweepVerbsMu.Unlock()
	slices.Sort(names)
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(env.Stdout, "Usage: simdrl sweep VERB [flags]\n\nVerbs:\n")
		for _, n := range names {
			fmt.Fprintf(env.Stdout, "  %-8s %s\n", n, sweepVerbs[n].summary)
		}
		fmt.Fprintf(env.Stdout, "\nsimdrl sweep VERB -h shows a verb's flags; docs/experiments.md shows a whole sweep.\n")
		if len(args) == 0 {
			return exitUsage
		}
		return 0
	}
	sweepVerbsMu.Lock()
	v, ok := sweepVerbs[args[0]]
	sweepVerbsMu.Unlock()
	if !ok {
		fmt.Fprintf(env.Stderr, "simdrl: sweep: unknown verb %q (verbs: %s)\n", args[0], strings.Join(names, ", "))
		return exitUsage
	}
	return v.run(args[1:], env)
}

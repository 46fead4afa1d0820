package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"

	"github.com/simdrl/simdrl/internal/atomicfile"
	"github.com/simdrl/simdrl/sweep"
	"github.com/simdrl/simdrl/trainer"
	flag "github.com/spf13/pflag"
)

func init() {
	addSweepVerb("plan", "expand a spec (YAML or JSON) into a manifest of runs, one JSON line each, with stable ids", sweepPlan)
}

// sweepPlan runs `simdrl sweep plan SPEC [-o MANIFEST]`.
func sweepPlan(args []string, env Env) int {
	fs := flag.NewFlagSet("sweep plan", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.StringP("output", "o", "", "write the manifest to this file (default: stdout)")
	help := fs.BoolP("help", "h", false, "show this help")
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: sweep plan: "+format+"\n", a...)
		return exitUsage
	}
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		return usage("%v", err)
	}
	if *help {
		fmt.Fprintf(env.Stdout, "Usage: simdrl sweep plan SPEC [-o MANIFEST]\n\n"+
			"Expands SPEC (docs/experiments.md) into a manifest: one run a line, {\"id\", \"args\", \"values\"},\n"+
			"the id a hash of the run's resolved configuration.\n\n%s", fs.FlagUsages())
		return 0
	}
	if fs.NArg() != 1 {
		return usage("give one SPEC file (simdrl sweep plan -h)")
	}
	spec, err := sweep.ReadSpec(fs.Arg(0))
	if err != nil {
		return usage("%s: %v", fs.Arg(0), err)
	}
	if *out != "" {
		if err := checkOutputs([]output{{"-o", *out}}, []output{{"SPEC", fs.Arg(0)}}); err != nil {
			return usage("%v", err)
		}
	}
	var entries []sweep.Entry
	first := map[string]int{} // id → its entry's index
	dropped := 0
	for _, r := range spec.Runs() {
		id, err := runID(r.Args)
		if err != nil {
			return usage("run %d (%s): %v", len(entries)+dropped+1, describeValues(r.Values), err)
		}
		if _, dup := first[id]; dup {
			dropped++ // two points that resolve to one configuration are one run
			continue
		}
		first[id] = len(entries)
		entries = append(entries, sweep.Entry{ID: id, Args: r.Args, Values: r.Values})
	}
	var b bytes.Buffer
	if err := sweep.WriteManifest(&b, entries); err != nil {
		fmt.Fprintf(env.Stderr, "simdrl: sweep plan: %v\n", err)
		return exitFail
	}
	if *out == "" {
		_, _ = env.Stdout.Write(b.Bytes())
	} else if err := atomicfile.Write(*out, b.Bytes()); err != nil {
		fmt.Fprintf(env.Stderr, "simdrl: sweep plan: -o: %v\n", err)
		return exitFail
	}
	if dropped > 0 {
		fmt.Fprintf(env.Stderr, "simdrl: sweep plan: %d runs repeat an earlier run's configuration and were left out\n", dropped)
	}
	if *out != "" {
		fmt.Fprintf(env.Stderr, "simdrl: sweep plan: %d runs in %s\n", len(entries), *out)
	}
	return 0
}

// runID is the id of the run that the train command's flags args start: the
// config they resolve to (resolveRun), its exhaustive evaluation's bound and
// its sampled evaluation.
func runID(args []string) (string, error) {
	cfg, fl, err := resolveRun(args)
	if err != nil {
		return "", err
	}
	return sweep.ID(cfg, fl.exhaustive, sweep.Sampled{Samples: fl.evalSamples, PassK: fl.evalPassK, Temperature: fl.evalTemperature}), nil
}

// resolveRun is the configuration a fresh run of args trains, as the train
// command resolves it (the recipe's values, the task's defaults, the flags
// on top), and its command-line options, without opening an engine.
func resolveRun(args []string) (trainer.Config, files, error) {
	cl, err := parseCommandLine(args, io.Discard)
	if errors.Is(err, errHelp) {
		err = errors.New("-h is not a run's flag")
	}
	if err != nil {
		return trainer.Config{}, files{}, errors.New(flagError(err))
	}
	prepareFlagTask(cl, trainer.Config{}, io.Discard)
	cfg, err := cl.fresh(nil)
	if err != nil {
		return cfg, files{}, errors.New(flagError(err))
	}
	return cfg, cl.fl, nil
}

// describeValues is a run's axis values as flags, for a message.
func describeValues(v map[string]string) string {
	if len(v) == 0 {
		return "the base flags"
	}
	s := ""
	for _, k := range slices.Sorted(maps.Keys(v)) {
		s += fmt.Sprintf(" -%s %s", k, v[k])
	}
	return s[1:]
}

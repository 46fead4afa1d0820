package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/simdrl/simdrl/internal/cluster"
	"github.com/simdrl/simdrl/trainer"
	flag "github.com/spf13/pflag"
)

func init() {
	addSweepVerb("optuna", "a worker of an Optuna study: ask for a trial's flags, train, tell its objective, until the study has its trials", sweepOptuna)
}

// optunaFlags are `simdrl sweep optuna`'s flags.
type optunaFlags struct {
	storage   *string
	study     *string
	spaceFile *string
	trials    *int
	objective *string
	direction *string
	dir       *string
	optunaCmd *string
	help      *bool
}

// newOptunaFlags is `simdrl sweep optuna`'s flag set.
func newOptunaFlags() (*flag.FlagSet, optunaFlags) {
	fs := flag.NewFlagSet("sweep optuna", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var f optunaFlags
	f.storage = fs.String("storage", "", "the study's storage, an SQLAlchemy URL (postgresql+psycopg2://…; sqlite:///FILE for one worker only)")
	f.study = fs.String("study", "", "the study's name (made when missing)")
	f.spaceFile = fs.String("space", "", "the search space: a JSON file from flag name to Optuna distribution")
	f.trials = fs.Int("trials", 0, "stop once the study has this many complete trials")
	f.objective = fs.String("objective", "", "what a trial tells: solve (final solve rate, maximized) or updates (updates to meet the stop rule, minimized)")
	f.direction = fs.String("direction", "", "maximize or minimize (default: the objective's)")
	f.dir = fs.String("dir", "optuna", "each trial's report and metrics in DIR/trial-N/ (one DIR per study)")
	f.optunaCmd = fs.String("optuna", "optuna", "the optuna command (python3-optuna 3.1 or later)")
	f.help = fs.BoolP("help", "h", false, "show this help")
	return fs, f
}

// optunaReserved are the train flags the worker sets for each trial: a
// search space may not search them.
var optunaReserved = []string{"report", "metrics", "save", "resume", "load"}

// objectives are the values a trial can tell the study, by name, with the
// direction that is better.
var objectives = map[string]struct {
	direction string
	of        func(r *trainer.Report) float64
}{
	// solve: the final evaluation's solve rate, averaged over the levels.
	"solve": {"maximize", func(r *trainer.Report) float64 {
		if len(r.Final.SolveRate) == 0 {
			return math.NaN() // no final evaluation (-final-episodes 0): nothing to tell
		}
		sum, played := 0.0, 0
		for _, s := range r.Final.SolveRate {
			if !math.IsNaN(s) { // NaN: a level not played
				sum, played = sum+s, played+1
			}
		}
		return sum / float64(played)
	}},
	// updates: the updates the run took to meet its stop rule; a run that
	// never met it scores its whole budget plus one, worse than any that did.
	"updates": {"minimize", func(r *trainer.Report) float64 {
		if n := len(r.Confirmations); n > 0 && r.Confirmations[n-1].Solved {
			return float64(r.Updates)
		}
		return float64(r.Config.Updates + 1)
	}},
}

// sweepOptuna runs `simdrl sweep optuna --storage URL --study NAME --space
// FILE --trials N --objective solve|updates [--direction …] [-dir DIR] --
// BASE_FLAGS…`.
func sweepOptuna(args []string, env Env) int {
	fs, f := newOptunaFlags()
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: sweep optuna: "+format+"\n", a...)
		return exitUsage
	}
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		return usage("%v", err)
	}
	if *f.help {
		fmt.Fprintf(env.Stdout, "Usage: simdrl sweep optuna --storage URL --study NAME --space FILE --trials N --objective solve|updates [-dir DIR] -- BASE_FLAGS…\n\n"+
			"A worker: asks the study for a trial (optuna ask; TPE, Optuna's default sampler), trains BASE_FLAGS with\n"+
			"the trial's flags, tells the study the objective (optuna tell), until the study has N complete trials.\n"+
			"Start as many workers as you like on one study (docs/experiments.md).\n\n%s", fs.FlagUsages())
		return 0
	}
	if fs.ArgsLenAtDash() != 0 && fs.NArg() > 0 {
		return usage("unexpected argument %q: the base flags come after --", fs.Arg(0))
	}
	base := fs.Args()
	switch {
	case *f.storage == "" || *f.study == "" || *f.spaceFile == "":
		return usage("--storage, --study and --space are required (simdrl sweep optuna -h)")
	case *f.trials < 1:
		return usage("--trials %d: give the number of complete trials the study should reach (at least 1)", *f.trials)
	}
	obj, ok := objectives[*f.objective]
	if !ok {
		return usage("--objective %q: solve or updates", *f.objective)
	}
	if *f.direction == "" {
		*f.direction = obj.direction
	}
	if *f.direction != "maximize" && *f.direction != "minimize" {
		return usage("--direction %q: maximize or minimize", *f.direction)
	}
	for _, a := range base {
		name := strings.TrimLeft(strings.SplitN(a, "=", 2)[0], "-")
		if strings.HasPrefix(a, "-") && slices.Contains(optunaReserved, name) {
			return usage("base flag %s: the worker sets -%s for each trial", a, name)
		}
	}
	if _, _, err := resolveRun(base); err != nil {
		return usage("base flags: %v", err)
	}
	data, err := os.ReadFile(*f.spaceFile)
	if err != nil {
		return usage("--space: %v", err)
	}
	space, err := cluster.ParseSpace(data, optunaReserved)
	if err != nil {
		return usage("--space %s: %v", *f.spaceFile, err)
	}
	train, ok := lookupCommand("train")
	if !ok {
		return usage("no train command")
	}
	stops := handOnSignals(env.Signals)
	w := cluster.Worker{
		Study:  cluster.Optuna{Command: []string{*f.optunaCmd}, Storage: *f.storage, Study: *f.study, Direction: *f.direction, Space: space},
		Trials: *f.trials,
		Say:    func(format string, a ...any) { fmt.Fprintf(env.Stderr, "simdrl: sweep optuna: "+format+"\n", a...) },
		Train: func(t cluster.Trial) (float64, int) {
			tdir := filepath.Join(*f.dir, "trial-"+strconv.Itoa(t.Number))
			if err := os.MkdirAll(tdir, 0o755); err != nil {
				fmt.Fprintf(env.Stderr, "simdrl: sweep optuna: %v\n", err)
				return 0, exitFail
			}
			log, err := os.Create(filepath.Join(tdir, "log"))
			if err != nil {
				fmt.Fprintf(env.Stderr, "simdrl: sweep optuna: %v\n", err)
				return 0, exitFail
			}
			defer log.Close()
			report := filepath.Join(tdir, "report.json")
			runArgs := append(append(append([]string{}, base...), t.Flags...),
				"-report", report, "-metrics", filepath.Join(tdir, "metrics.jsonl"))
			fmt.Fprintf(log, "simdrl %s\n", strings.Join(runArgs, " "))
			code := train.Run(runArgs, Env{Stdout: log, Stderr: log, Signals: stops.trial()})
			stops.trialDone()
			if code != 0 {
				return 0, code
			}
			var r trainer.Report
			data, err := os.ReadFile(report)
			if err == nil {
				err = json.Unmarshal(data, &r)
			}
			if err != nil {
				fmt.Fprintf(env.Stderr, "simdrl: sweep optuna: trial %d's report: %v\n", t.Number, err)
				return 0, exitFail
			}
			return obj.of(&r), 0
		},
		Stopped: stops.stopped,
	}
	return w.Run()
}

// signalsHandedOn takes the worker's signals: one that comes while a trial
// trains is handed on to it (it saves its report and stops), and the
// worker stops before its next trial.
type signalsHandedOn struct {
	mu     sync.Mutex
	cur    chan os.Signal // the trial's, while one trains
	caught os.Signal
}

func handOnSignals(sigs <-chan os.Signal) *signalsHandedOn {
	h := &signalsHandedOn{}
	if sigs != nil {
		go func() {
			for s := range sigs {
				h.mu.Lock()
				if h.caught == nil {
					h.caught = s
				}
				if h.cur != nil {
					select {
					case h.cur <- handedOn{s}:
					default: // the trial has one already
					}
				}
				h.mu.Unlock()
			}
		}()
	}
	return h
}

// trial is a new trial's signal channel; a signal caught before it is
// handed on at once, so that the trial stops at its first check.
func (h *signalsHandedOn) trial() <-chan os.Signal {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cur = make(chan os.Signal, 2)
	if h.caught != nil {
		h.cur <- handedOn{h.caught}
	}
	return h.cur
}

func (h *signalsHandedOn) trialDone() {
	h.mu.Lock()
	h.cur = nil
	h.mu.Unlock()
}

func (h *signalsHandedOn) stopped() (int, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.caught == nil {
		return 0, false
	}
	return exitCodeFor(h.caught), true
}

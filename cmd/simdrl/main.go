package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/gpu"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/trainer"
)

// Exit codes: 0 done, 1 training failed, 2 bad usage, 128+signal when
// interrupted (130 for Ctrl-C, 143 for SIGTERM).
const (
	exitFail  = 1
	exitUsage = 2
)

func main() {
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, sigs))
}

// run is the whole command; sigs delivers interruptions (nil: none).
func run(args []string, stdout, stderr io.Writer, sigs <-chan os.Signal) int {
	usage := func(format string, a ...any) int {
		for i, v := range a {
			if err, ok := v.(error); ok {
				a[i] = flagError(err)
			}
		}
		fmt.Fprintf(stderr, "simdrl: "+format+"\n", a...)
		return exitUsage
	}
	cfg, fl, override, err := parseCommandLine(args, stdout)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		return usage("%v", err)
	}
	if err := kernels.CheckRequest(); err != nil {
		return usage("%v", err)
	}
	if fl.device == "cuda" {
		// Never falls back to the CPU: no usable GPU is a usage error.
		if err := gpu.Available(); err != nil {
			return usage("-device cuda: %v", err)
		}
	}
	// Every output is checked before any work, the plot's name included, so
	// that no run is lost to a path it cannot write at the end.
	if err := checkOutputs([]output{{"-report", fl.report}, {"-save", fl.save}, {"-metrics", fl.metrics}, {"-plot", fl.plot}}); err != nil {
		return usage("%v", err)
	}
	if err := checkPlotName(fl.plot); err != nil {
		return usage("%v", err)
	}

	// The model: fresh, weights from -load, or a whole run from -resume
	// (whose config the flags given explicitly override); on whichever
	// engine -device names, since every engine reads and writes the same
	// checkpoints.
	var resume, load *checkpoint.File
	if fl.resume != "" {
		if resume, err = checkpoint.ReadFile(fl.resume); err != nil {
			return usage("-resume: %v", err)
		}
		saved, err := trainer.CheckpointConfig(resume)
		if err != nil {
			return usage("-resume %s: %v", fl.resume, err)
		}
		if cfg, err = override(saved); err != nil {
			return usage("-resume: %v", err)
		}
	}
	if fl.load != "" {
		if load, err = checkpoint.ReadFile(fl.load); err != nil {
			return usage("-load: %v", err)
		}
	}
	engine, err := engines[fl.device](cfg)
	if err != nil && fl.device == "cpu" {
		return usage("%v", err)
	} else if err != nil {
		return usage("-device %s: %v", fl.device, err)
	}
	switch {
	case resume != nil:
		if err := engine.Restore(resume); err != nil {
			engine.Close()
			return usage("-resume %s: %v", fl.resume, err)
		}
	case load != nil:
		if err := engine.LoadWeights(load); err != nil {
			engine.Close()
			var se *trainer.ShapeError
			if errors.As(err, &se) {
				return usage("-load %s: %v (%s)", fl.load, se.Error(), loadHint(load, cfg))
			}
			return usage("-load %s: %v", fl.load, err)
		}
	}
	if fl.plot != "" && (fl.evalOnly || cfg.EvalEvery == 0 || cfg.Updates <= engine.Updates()) {
		engine.Close()
		return usage("-plot: this run makes no evaluations to draw (it needs training updates and -eval-every > 0)")
	}
	if fl.evalOnly {
		defer engine.Close()
		hash, err := engine.ParamSHA256()
		rep := &trainer.Report{Config: cfg, Updates: engine.Updates(), Backend: engine.Backend(), ParamSHA256: hash,
			Levels: trainer.LevelNames(engine.Task())}
		if err == nil {
			err = trainer.Conclude(engine, rep, stdout, fl.quiet)
		}
		return finish(fl, rep, err, stderr)
	}

	opt := trainer.Options{SaveEvery: fl.saveEvery, Quiet: fl.quiet, Progress: isTerminal(stdout) && !fl.quiet}
	if fl.save != "" {
		opt.Save = func() error {
			f, err := engine.Checkpoint()
			if err != nil {
				return err
			}
			return checkpoint.WriteFile(fl.save, f)
		}
	}
	if fl.metrics != "" {
		mf, err := openMetrics(fl.metrics)
		if err != nil {
			engine.Close()
			return usage("-metrics: %v", err)
		}
		defer mf.Close()
		opt.Metrics = mf
	}
	// The first signal stops the run at the next chunk (and saves the last
	// completed update); a second one exits at once.
	interrupt := make(chan struct{})
	opt.Interrupt = interrupt
	var caught os.Signal
	stop := make(chan struct{})
	defer close(stop)
	caughtc := make(chan os.Signal, 1)
	go func() {
		select {
		case s := <-sigs:
			caughtc <- s
			fmt.Fprintf(stderr, "\nsimdrl: %v: stopping at the next chunk, keeping the last completed update (again to quit at once)\n", s)
			close(interrupt)
		case <-stop:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "simdrl: %v again: quitting now\n", s)
			os.Exit(exitCodeFor(s))
		case <-stop:
		}
	}()

	var rep *trainer.Report
	var runErr error
	rep, runErr = trainer.Drive(engine, stdout, opt)
	select {
	case caught = <-caughtc:
	default:
	}
	code := finish(fl, rep, runErr, stderr)
	if errors.Is(runErr, trainer.ErrInterrupted) && caught != nil {
		if fl.save != "" {
			fmt.Fprintf(stderr, "simdrl: checkpoint after update %d in %s; continue with -resume %s\n", rep.Updates, fl.save, fl.save)
		}
		return exitCodeFor(caught)
	}
	return code
}

// finish writes the report and the plot and turns the run's error into an
// exit code.
func finish(fl files, rep *trainer.Report, runErr error, stderr io.Writer) int {
	code := 0
	if runErr != nil && !errors.Is(runErr, trainer.ErrInterrupted) {
		fmt.Fprintf(stderr, "simdrl: %v\n", runErr)
		code = exitFail
	}
	if rep == nil {
		return code
	}
	rep.Device = fl.device
	if fl.report != "" {
		if err := writeReport(fl.report, rep); err != nil {
			fmt.Fprintf(stderr, "simdrl: -report: %v\n", err)
			code = exitFail
		}
	}
	if fl.plot != "" {
		if err := writePlot(fl.plot, rep); err != nil {
			fmt.Fprintf(stderr, "simdrl: %v\n", err)
			code = exitFail
		}
	}
	return code
}

// engines opens a training engine by its -device name. Every engine
// implements trainer.Engine; a new one is a new line here.
var engines = map[string]func(trainer.Config) (trainer.Engine, error){
	"cpu": func(cfg trainer.Config) (trainer.Engine, error) {
		e, err := cpu.New(cfg)
		if err != nil {
			return nil, err // not a nil *cpu.Engine inside a non-nil interface
		}
		return e, nil
	},
	"cuda": gpu.New,
}

// flagError phrases an engine's error for the command line: a refused
// resource names the flag that lowers it.
func flagError(err error) string {
	var fe *trainer.FieldError
	if errors.As(err, &fe) && err == error(fe) {
		flag := "-" + strings.ReplaceAll(fe.Field, "_", "-")
		if fe.Bare() {
			return flag + ": " + fe.Problem
		}
		return flag + " " + fe.Problem
	}
	var se *trainer.ShapeError
	if errors.As(err, &se) {
		return err.Error() + " (check -hidden)"
	}
	var re *trainer.ResourceError
	if errors.As(err, &re) {
		flag := "-" + strings.ReplaceAll(re.Knob, "_", "-")
		return fmt.Sprintf("this run needs %s of memory and %s is available: lower %s", trainer.FormatBytes(re.Need), trainer.FormatBytes(re.Have), flag)
	}
	return err.Error()
}

// loadHint says how to make a model of a -load checkpoint's shape: the flags
// its saved configuration differs in (task, levels, hidden width), else
// -hidden.
func loadHint(f *checkpoint.File, cfg trainer.Config) string {
	saved, err := trainer.CheckpointConfig(f)
	if err != nil {
		return "check -hidden"
	}
	var flags []string
	if saved.Task != cfg.Task {
		flags = append(flags, "-task "+saved.Task)
	}
	if saved.Levels != cfg.Levels && saved.Levels == "" {
		flags = append(flags, "the default levels (no -levels)")
	} else if saved.Levels != cfg.Levels {
		flags = append(flags, "-levels '"+saved.Levels+"'")
	}
	if saved.Hidden != cfg.Hidden {
		flags = append(flags, fmt.Sprintf("-hidden %d", saved.Hidden))
	}
	if len(flags) == 0 {
		return "check -hidden"
	}
	return "it was trained with " + strings.Join(flags, " and ")
}

func exitCodeFor(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 128 + int(syscall.SIGINT)
}

// isTerminal reports whether w is a character device (a live progress line
// is drawn there; a pipe or file gets plain lines).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

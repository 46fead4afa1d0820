package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/sweep"
	"github.com/simdrl/simdrl/trainer"
	flag "github.com/spf13/pflag"
)

func init() {
	addSweepVerb("run", "run a manifest's entries (--index, --shard i/n or all; --jobs N at once), each resumable in DIR/<id>/", sweepRun)
}

// The sweep's exit codes beyond 0, 1 (a run failed) and 2 (bad usage).
const (
	// exitBusy: --index names an entry that another worker, alive, holds;
	// nothing was run (it is that worker's).
	exitBusy = 3
	// exitPreempted: a signal (SIGTERM, SIGUSR1, SIGINT) stopped the worker
	// after every run it had saved its checkpoint: run it again to go on.
	// It is sysexits.h's EX_TEMPFAIL, apart from 1, 2 and 128+signal (a
	// worker killed outright), so that a requeue script or a Kubernetes
	// podFailurePolicy can tell a preemption from a failure.
	exitPreempted = 75
)

// sweepOptions are `sweep run`'s flags.
type sweepOptions struct {
	dir       string
	jobs      int
	threads   int
	saveEvery int
}

// sweepRun runs `simdrl sweep run MANIFEST [flags]`.
func sweepRun(args []string, env Env) int {
	fs := flag.NewFlagSet("sweep run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	var o sweepOptions
	fs.StringVar(&o.dir, "dir", "runs", "the sweep's directory: each run writes DIR/<id>/ (checkpoint.st, report.json, metrics.jsonl, tensorboard/, log)")
	index := fs.Int("index", -1, "run only entry I (from 0); default $SLURM_ARRAY_TASK_ID, then $JOB_COMPLETION_INDEX")
	shardFlag := fs.String("shard", "", "run only part i of n (i/n, 0 ≤ i < n): the entries k with k mod n = i")
	fs.IntVar(&o.jobs, "jobs", 1, "runs at once in this process, their threads and memory budgeted together")
	fs.IntVar(&o.threads, "threads", 0, "CPU threads of each run (0: the machine's CPUs / --jobs, at least 1)")
	fs.IntVar(&o.saveEvery, "save-every", 50, "each run saves its checkpoint every N updates (≥ 1): a killed worker loses at most N per run")
	help := fs.BoolP("help", "h", false, "show this help")
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: sweep run: "+format+"\n", a...)
		return exitUsage
	}
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		return usage("%v", err)
	}
	if *help {
		fmt.Fprintf(env.Stdout, "Usage: simdrl sweep run MANIFEST [flags]\n\n"+
			"Runs the manifest's entries (simdrl sweep plan), each in DIR/<id>/: a finished run is skipped, an\n"+
			"interrupted one resumes from its checkpoint, one that another worker holds is left to it.\n"+
			"Exit codes: 0 done, 1 a run failed, 2 bad usage, %d --index's entry is held by another worker,\n"+
			"%d stopped by a signal with every checkpoint saved (run again to go on).\n\n%s", exitBusy, exitPreempted, fs.FlagUsages())
		return 0
	}
	if fs.NArg() != 1 {
		return usage("give one MANIFEST file (simdrl sweep run -h)")
	}
	switch {
	case o.jobs < 1:
		return usage("--jobs must be ≥ 1, got %d", o.jobs)
	case o.threads < 0 || o.threads > trainer.MaxThreads:
		return usage("--threads must be in [0, %d], got %d", trainer.MaxThreads, o.threads)
	case o.saveEvery < 1:
		return usage("--save-every must be ≥ 1, got %d", o.saveEvery)
	case fs.Changed("index") && fs.Changed("shard"):
		return usage("--index and --shard exclude each other")
	case fs.Changed("index") && *index < 0:
		return usage("--index must be ≥ 0, got %d", *index)
	}
	if o.threads == 0 {
		o.threads = max(1, runtime.NumCPU()/o.jobs)
	}
	var shard sweep.Shard
	if *shardFlag != "" {
		var err error
		if shard, err = sweep.ParseShard(*shardFlag); err != nil {
			return usage("%v", err)
		}
	} else if !fs.Changed("index") {
		// A Slurm array task or a Kubernetes Indexed Job's pod runs its own.
		for _, name := range []string{"SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"} {
			if v, ok := os.LookupEnv(name); ok {
				i, err := strconv.Atoi(v)
				if err != nil || i < 0 {
					return usage("$%s is %q, not an entry's index", name, v)
				}
				*index = i
				break
			}
		}
	}
	entries, err := sweep.ReadManifest(fs.Arg(0))
	if err != nil {
		return usage("%s: %v", fs.Arg(0), err)
	}
	picked, err := sweep.Select(len(entries), *index, shard)
	if err != nil {
		return usage("%v", err)
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return usage("-dir: %v", err)
	}
	w := newSweepWorker(o, env)
	for _, k := range picked {
		w.add(entries[k])
	}
	sum := w.wait()
	fmt.Fprintf(env.Stderr, "simdrl: sweep run: %s\n", sum)
	switch {
	case sum.stopped != nil:
		return exitPreempted
	case sum.failed > 0:
		return exitFail
	case *index >= 0 && sum.busy > 0:
		return exitBusy
	}
	return 0
}

// sweepWorker runs entries, up to jobs at once, each with its share of the
// threads and, together, within the memory available when it began.
type sweepWorker struct {
	o      sweepOptions
	env    Env
	budget float64 // bytes the runs at once may need together (0: unknown, not checked)

	mu      sync.Mutex
	cond    *sync.Cond
	running int
	used    float64                 // the running runs' memory estimates
	active  map[chan os.Signal]bool // the running runs' signals
	sum     sweepSummary
	wg      sync.WaitGroup
	done    chan struct{}
	logMu   sync.Mutex // one line at a time on env.Stderr
}

// sweepSummary counts what became of the entries.
type sweepSummary struct {
	ran, before, busy, failed, interrupted int
	jobs, peak                             int       // --jobs, and the most runs that ran at once
	stopped                                os.Signal // the signal that stopped the worker
}

func (s sweepSummary) String() string {
	msg := fmt.Sprintf("%d finished now, %d finished before, %d held by another worker, %d failed", s.ran, s.before, s.busy, s.failed)
	if s.jobs > 1 {
		msg += fmt.Sprintf(" (at most %d at once)", s.peak)
	}
	if s.stopped != nil {
		msg += fmt.Sprintf(", %d stopped by %v with their checkpoints saved: run again to go on", s.interrupted, s.stopped)
	}
	return msg
}

func newSweepWorker(o sweepOptions, env Env) *sweepWorker {
	w := &sweepWorker{o: o, env: env, active: map[chan os.Signal]bool{}, done: make(chan struct{}), sum: sweepSummary{jobs: o.jobs}}
	w.cond = sync.NewCond(&w.mu)
	if o.jobs > 1 {
		w.budget = enginekit.AvailableMemory()
	}
	if env.Signals != nil {
		go w.handOn(env.Signals)
	}
	return w
}

// handOn hands every signal the worker gets on to each run it is running
// (handedOn: a run still in its setup stops at its first check instead of
// exiting the process), and starts no run after the first.
func (w *sweepWorker) handOn(sigs <-chan os.Signal) {
	for {
		select {
		case s := <-sigs:
			w.mu.Lock()
			first := w.sum.stopped == nil
			if first {
				w.sum.stopped = s
			}
			for ch := range w.active {
				select {
				case ch <- handedOn{s}:
				default: // the run has more signals waiting than it reads
				}
			}
			n := len(w.active)
			w.cond.Broadcast()
			w.mu.Unlock()
			if first {
				w.say("%v: stopping %d runs at their next chunk, each saving its checkpoint", s, n)
			}
		case <-w.done:
			return
		}
	}
}

func (w *sweepWorker) say(format string, a ...any) {
	w.logMu.Lock()
	defer w.logMu.Unlock()
	fmt.Fprintf(w.env.Stderr, "simdrl: sweep run: "+format+"\n", a...)
}

// add starts entry e once a job's place and its memory are free (in the
// manifest's order), unless it is finished or the worker was stopped.
func (w *sweepWorker) add(e sweep.Entry) {
	d := sweep.Of(w.o.dir, e.ID)
	if d.Finished() {
		w.mu.Lock()
		w.sum.before++
		w.mu.Unlock()
		return
	}
	need := 0.0
	if w.budget > 0 {
		if cfg, fl, err := resolveRun(e.Args); err == nil && fl.device == "cpu" {
			need, _ = cpu.Memory(cfg)
		}
	}
	w.mu.Lock()
	// A run that does not fit beside the others waits for them; alone, it
	// goes (its engine refuses it, with the flag to lower, if it cannot fit).
	for w.sum.stopped == nil && (w.running >= w.o.jobs || w.running > 0 && w.used+need > w.budget && w.budget > 0) {
		w.cond.Wait()
	}
	if w.sum.stopped != nil {
		w.mu.Unlock()
		return
	}
	sigs := make(chan os.Signal, 4)
	w.active[sigs] = true
	w.running++
	w.sum.peak = max(w.sum.peak, w.running)
	w.used += need
	w.wg.Add(1)
	w.mu.Unlock()
	go func() {
		defer w.wg.Done()
		outcome := w.runEntry(e, d, sigs)
		w.mu.Lock()
		delete(w.active, sigs)
		w.running--
		w.used -= need
		switch outcome {
		case entryDone:
			w.sum.ran++
		case entryFinishedBefore:
			w.sum.before++
		case entryBusy:
			w.sum.busy++
		case entryFailed:
			w.sum.failed++
		case entryStopped:
			w.sum.interrupted++
		}
		w.cond.Broadcast()
		w.mu.Unlock()
	}()
}

// wait waits for every run started and returns the summary.
func (w *sweepWorker) wait() sweepSummary {
	w.wg.Wait()
	close(w.done)
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.sum
}

type entryOutcome int

const (
	entryDone entryOutcome = iota
	entryFinishedBefore
	entryBusy
	entryFailed
	entryStopped
)

// runEntry runs entry e in its directory d, under its lock: from the
// start, or from its checkpoint when an earlier attempt left one; a run
// that ends with its report and no error is marked done.
func (w *sweepWorker) runEntry(e sweep.Entry, d sweep.RunDir, sigs chan os.Signal) entryOutcome {
	lock, err := d.TryLock()
	if errors.Is(err, sweep.ErrLocked) {
		w.say("%s: another worker holds it; left to that one", e.ID)
		return entryBusy
	}
	if err != nil {
		w.say("%s: %v", e.ID, err)
		return entryFailed
	}
	defer lock.Unlock()
	if d.Finished() { // another worker finished it since add looked
		return entryFinishedBefore
	}
	args, err := w.trainArgs(e, d)
	if err != nil {
		w.say("%s: %v", e.ID, err)
		return entryFailed
	}
	log, err := os.OpenFile(d.Log(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		w.say("%s: %v", e.ID, err)
		return entryFailed
	}
	defer log.Close()
	fmt.Fprintf(log, "simdrl sweep run: simdrl %s\n", strings.Join(args, " "))
	train, _ := lookupCommand("train")
	code := train.Run(args, Env{Stdout: log, Stderr: log, Signals: sigs})
	if code == 0 {
		if err := finishedCleanly(d); err != nil {
			w.say("%s: %v (see %s)", e.ID, err, d.Log())
			return entryFailed
		}
		if err := d.MarkDone(); err != nil {
			w.say("%s: %v", e.ID, err)
			return entryFailed
		}
		return entryDone
	}
	if code > 128 { // a signal stopped it, after it saved
		return entryStopped
	}
	w.say("%s: exit %d (see %s)", e.ID, code, d.Log())
	return entryFailed
}

// trainArgs is the train command's command line for entry e in d. A fresh
// run is its flags with the outputs in d; an earlier attempt's files that
// no checkpoint backs (it was killed before the first one) are removed
// first, as they are the start of this same run. A run that left a
// checkpoint resumes it: its config is the checkpoint's (the same, the id
// says), so only the options no checkpoint holds (resumeOptions) are given
// again.
func (w *sweepWorker) trainArgs(e sweep.Entry, d sweep.RunDir) ([]string, error) {
	outs := []string{"-save", d.Checkpoint(), "-save-every", strconv.Itoa(w.o.saveEvery), "-report", d.Report(),
		"-metrics", d.Metrics(), "-tensorboard", d.TensorBoard(), "-threads", strconv.Itoa(w.o.threads)}
	if !d.HasCheckpoint() {
		for _, p := range []string{d.Report(), d.Metrics(), d.TensorBoard()} {
			if err := os.RemoveAll(p); err != nil {
				return nil, err
			}
		}
		return append(append([]string{}, e.Args...), outs...), nil
	}
	cl, err := parseCommandLine(e.Args, io.Discard)
	if err != nil {
		return nil, fmt.Errorf("its flags: %s", flagError(err))
	}
	args := []string{"-resume", d.Checkpoint(), "-device", cl.fl.device}
	for _, name := range resumeOptions {
		if cl.changed(name) {
			args = append(args, "-"+name+"="+cl.fs.Lookup(name).Value.String())
		}
	}
	return append(args, outs...), nil
}

// resumeOptions are the train command's options that no checkpoint holds
// and the sweep does not set itself (files, less the outputs above): a
// resumed run is given them again, or it would report less than its fresh
// start would have (a preempted run once lost its sampled evaluation).
var resumeOptions = []string{"exhaustive", "eval-samples", "eval-pass-k", "eval-temperature", "quiet", "plot"}

// finishedCleanly checks the report of a run that exited 0: there, and
// without an error.
func finishedCleanly(d sweep.RunDir) error {
	b, err := os.ReadFile(d.Report())
	if err != nil {
		return fmt.Errorf("no report: %v", err)
	}
	var rep struct {
		Error       string `json:"error"`
		Interrupted bool   `json:"interrupted"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("report.json: %v", err)
	}
	if rep.Error != "" || rep.Interrupted {
		return fmt.Errorf("the report says it did not finish: %s", rep.Error)
	}
	return nil
}

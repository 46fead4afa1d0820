package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// interrupts watches for SIGINT, SIGTERM and SIGUSR1 from the command's first
// instruction on. Before the run starts (flags, checkpoints, the level
// search, opening outputs: any of them may block, on a FIFO say) nothing has
// been computed that a signal could lose, so the first one exits at once.
// Once Drive has the run (running), the first signal closes stop, which
// Drive and the engines observe between steps (saving the last completed
// update, writing the report); a second request exits at once.
//
// One request may arrive as several signals: coreutils timeout sends its
// signal to the child and then to the child's process group, and so does
// any supervisor that signals a process and its group; a person may press
// Ctrl-C twice in a hurry. Nothing in the process tells such a copy from a
// second request (os/signal gives no sender), so every signal that comes
// before the first one's message is written, or within signalBurst after
// it, is the first request again and is dropped; the first signal after
// that burst is a second request. Taking a copy for a second request loses
// the run's checkpoint; taking a hurried second press for a copy costs one
// more Ctrl-C: the window errs long.
type interrupts struct {
	stop    chan struct{}
	running atomic.Bool
	mu      sync.Mutex
	caught  os.Signal
	plan    stopPlan // what a stop keeps, for the first signal's message
	done    chan struct{}
	exit    func(code int)          // os.Exit
	settle  func() <-chan time.Time // the end of the first signal's burst
}

// signalBurst is how long after the first signal's message further signals
// are still taken for copies of it: far longer than the scheduling delay
// between two kill calls of one program on a loaded machine, and about as
// long as a person takes to read the message and press Ctrl-C again (a
// hurried press within it needs one more).
const signalBurst = time.Second

// watch starts watching sigs (nil: never interrupted); end stops it.
func watch(sigs <-chan os.Signal, stderr io.Writer) *interrupts {
	settle := func() <-chan time.Time { return time.After(signalBurst) }
	if hooks.settle != nil {
		settle = hooks.settle
	}
	return watchWith(sigs, stderr, os.Exit, settle)
}

// watchWith is watch with its exit and its burst's end given (tests drive
// both through channels).
func watchWith(sigs <-chan os.Signal, stderr io.Writer, exit func(int), settle func() <-chan time.Time) *interrupts {
	in := &interrupts{stop: make(chan struct{}), done: make(chan struct{}), exit: exit, settle: settle}
	if sigs != nil {
		go in.serve(sigs, stderr)
	}
	return in
}

// serve acts on sigs until end: the first signal, its burst, a second
// request.
func (in *interrupts) serve(sigs <-chan os.Signal, stderr io.Writer) {
	select {
	case s := <-sigs:
		s, handed := handedOnSignal(s)
		if !in.running.Load() && !handed {
			fmt.Fprintf(stderr, "\nsimdrl: %v: stopping before the run began\n", s)
			in.exit(exitCodeFor(s))
			return
		}
		in.mu.Lock()
		in.caught = s
		plan := in.plan
		in.mu.Unlock()
		fmt.Fprintf(stderr, "\nsimdrl: %v: stopping at the next chunk%s (again to quit at once)\n", s, plan.keeps())
		close(in.stop)
		if handed && !in.running.Load() {
			milestone("stopping") // tests hold a run in its setup until here
		}
	case <-in.done:
		return
	}
	// The window starts once the message is written: whatever came
	// meanwhile is waiting in sigs and is drained here.
	burst := in.settle()
	for settled := false; !settled; {
		select {
		case <-sigs: // a copy of the first signal
		case <-burst:
			settled = true
		case <-in.done:
			return
		}
	}
	select {
	case s := <-sigs:
		fmt.Fprintf(stderr, "simdrl: %v again: quitting now\n", s)
		in.exit(exitCodeFor(s))
	case <-in.done:
	}
}

// stopPlan is what a training run keeps when it is stopped: its -save
// path, or nothing. Unset (an -eval-only run), it trains nothing to keep.
type stopPlan struct {
	training bool
	save     string
}

// keeps ends the first signal's message: where the last completed update
// goes, or that it goes nowhere (the message used to promise it was kept
// whether or not -save was given).
func (p stopPlan) keeps() string {
	switch {
	case !p.training:
		return ""
	case p.save == "":
		return "; nothing will be saved (no -save)"
	default:
		return ", saving the last completed update to " + p.save
	}
}

// training tells the watcher that the run trains and saves to save ("":
// nowhere).
func (in *interrupts) training(save string) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.plan = stopPlan{training: true, save: save}
}

// signal is the first signal caught, or nil.
func (in *interrupts) signal() os.Signal {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.caught
}

// code is the exit code for the caught signal (130 for SIGINT, 143 for
// SIGTERM); with none caught, SIGINT's.
func (in *interrupts) code() int {
	if s := in.signal(); s != nil {
		return exitCodeFor(s)
	}
	return exitCodeFor(os.Interrupt)
}

// stopped reports whether the first signal has come.
func (in *interrupts) stopped() bool {
	select {
	case <-in.stop:
		return true
	default:
		return false
	}
}

func (in *interrupts) end() { close(in.done) }

// exitCodeFor is 128+s: 130 for SIGINT, 143 for SIGTERM, 138 for SIGUSR1
// (Slurm's warning before a job's time ends, --signal=USR1@…).
func exitCodeFor(s os.Signal) int {
	s, _ = handedOnSignal(s)
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 128 + int(syscall.SIGINT)
}

// handedOn is a signal that a command running this one in-process (a
// sweep's worker, several runs at once) hands on. Such a run's setup never
// blocks (its outputs are plain files), and an exit before it began would
// end the process with the other runs' last updates unsaved: so it asks
// the run to stop at its first check, as once it is running.
type handedOn struct{ sig os.Signal }

func (h handedOn) String() string { return h.sig.String() }
func (h handedOn) Signal()        {}

// handedOnSignal unwraps s, and says whether it was handed on.
func handedOnSignal(s os.Signal) (os.Signal, bool) {
	if h, ok := s.(handedOn); ok {
		return h.sig, true
	}
	return s, false
}

// console is stdout or stderr as the run writes it: once a write fails (a
// closed pipe, `simdrl | head -1`), later writes are dropped and report
// success, so that the run goes on to its checkpoint and report. main
// ignores SIGPIPE, which would otherwise kill the process at that write.
type console struct {
	w      io.Writer
	failed atomic.Bool
}

func (c *console) Write(p []byte) (int, error) {
	if c.failed.Load() {
		return len(p), nil
	}
	if _, err := c.w.Write(p); err != nil {
		c.failed.Store(true)
	}
	return len(p), nil
}

// Fd lets isTerminal see the file behind the console.
func (c *console) file() (*os.File, bool) {
	f, ok := c.w.(*os.File)
	return f, ok
}

package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
)

// interrupts watches for SIGINT and SIGTERM from the command's first
// instruction on. Before the run starts (flags, checkpoints, the level
// search, opening outputs: any of them may block, on a FIFO say) nothing has
// been computed that a signal could lose, so the first one exits at once.
// Once Drive has the run (running), the first signal closes stop, which
// Drive and the engines observe between steps (saving the last completed
// update, writing the report); a second one exits at once.
type interrupts struct {
	stop    chan struct{}
	running atomic.Bool
	mu      sync.Mutex
	caught  os.Signal
	done    chan struct{}
}

// watch starts watching sigs (nil: never interrupted); end stops it.
func watch(sigs <-chan os.Signal, stderr io.Writer) *interrupts {
	in := &interrupts{stop: make(chan struct{}), done: make(chan struct{})}
	if sigs == nil {
		return in
	}
	go func() {
		select {
		case s := <-sigs:
			if !in.running.Load() {
				fmt.Fprintf(stderr, "\nsimdrl: %v: stopping before the run began\n", s)
				os.Exit(exitCodeFor(s))
			}
			in.mu.Lock()
			in.caught = s
			in.mu.Unlock()
			fmt.Fprintf(stderr, "\nsimdrl: %v: stopping at the next chunk, keeping the last completed update (again to quit at once)\n", s)
			close(in.stop)
		case <-in.done:
			return
		}
		select {
		case s := <-sigs:
			fmt.Fprintf(stderr, "simdrl: %v again: quitting now\n", s)
			os.Exit(exitCodeFor(s))
		case <-in.done:
		}
	}()
	return in
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

func exitCodeFor(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 128 + int(syscall.SIGINT)
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

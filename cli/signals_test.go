package cli

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// signalWatch is a watch whose signals, exits and settling the test drives
// through channels: every step below is an event, none a delay. sigs and
// settle are unbuffered, so a send returns once the watcher has taken it.
type signalWatch struct {
	in     *interrupts
	sigs   chan os.Signal
	settle chan time.Time
	exits  chan int
	stderr bytes.Buffer // read only after an exit (the watcher has stopped writing)
}

func newSignalWatch(t *testing.T, running bool) *signalWatch {
	w := &signalWatch{sigs: make(chan os.Signal), settle: make(chan time.Time), exits: make(chan int, 1)}
	w.in = watchWith(w.sigs, &w.stderr, func(code int) { w.exits <- code }, func() <-chan time.Time { return w.settle })
	w.in.running.Store(running)
	t.Cleanup(w.in.end)
	return w
}

// copied delivers a copy of the first signal, and settled ends the first
// signal's burst; an exit before either (a copy taken for a second request)
// fails the test.
func (w *signalWatch) copied(t *testing.T, s os.Signal) {
	select {
	case w.sigs <- s:
	case code := <-w.exits:
		t.Fatalf("exit %d on a copy of the first signal: %q", code, w.stderr.String())
	}
}

func (w *signalWatch) settled(t *testing.T) {
	select {
	case w.settle <- time.Time{}:
	case code := <-w.exits:
		t.Fatalf("exit %d on a copy of the first signal, before the burst settled: %q", code, w.stderr.String())
	}
}

// TestOneSignalDeliveredTwiceIsOneRequest: coreutils timeout sends its
// signal to the child and then to the child's process group, so a run got
// SIGINT twice and took the copy for "again: quitting now": no checkpoint.
// Copies that come before the burst settles are the first request; a signal
// after it is a second one, and quits at once with its own code.
func TestOneSignalDeliveredTwiceIsOneRequest(t *testing.T) {
	for _, c := range []struct {
		name        string
		first, copy os.Signal
		again       os.Signal
	}{
		{"SIGINT twice (timeout's pid then group)", syscall.SIGINT, syscall.SIGINT, syscall.SIGINT},
		{"SIGTERM twice", syscall.SIGTERM, syscall.SIGTERM, syscall.SIGTERM},
		{"SIGINT then SIGTERM", syscall.SIGINT, syscall.SIGTERM, syscall.SIGTERM},
		{"SIGTERM then SIGINT", syscall.SIGTERM, syscall.SIGINT, syscall.SIGINT},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newSignalWatch(t, true)
			w.sigs <- c.first
			<-w.in.stop // the run is told to stop at its next chunk
			w.copied(t, c.copy)
			w.copied(t, c.copy) // a third: still the same request
			w.settled(t)
			require.Equal(t, c.first, w.in.signal(), "the run's exit code is the first signal's")
			w.sigs <- c.again
			require.Equal(t, exitCodeFor(c.again), <-w.exits)
			require.Contains(t, w.stderr.String(), "again to quit at once")
			require.Contains(t, w.stderr.String(), c.again.String()+" again: quitting now")
		})
	}
}

// TestSecondRequestQuitsAtOnce: a signal after the first one's burst quits
// at once, whatever its kind, with its own code (SIGTERM after Ctrl-C: 143).
func TestSecondRequestQuitsAtOnce(t *testing.T) {
	for _, pair := range [][2]os.Signal{{syscall.SIGINT, syscall.SIGINT}, {syscall.SIGINT, syscall.SIGTERM}, {syscall.SIGTERM, syscall.SIGINT}} {
		w := newSignalWatch(t, true)
		w.sigs <- pair[0]
		w.settled(t)
		w.sigs <- pair[1]
		require.Equal(t, exitCodeFor(pair[1]), <-w.exits, "%v then %v", pair[0], pair[1])
	}
}

// TestSignalBeforeTheRunExitsAtOnce: before the run begins, the first
// signal exits with its code, there being nothing to keep.
func TestSignalBeforeTheRunExitsAtOnce(t *testing.T) {
	for _, sig := range []os.Signal{syscall.SIGINT, syscall.SIGTERM} {
		w := newSignalWatch(t, false)
		w.sigs <- sig
		require.Equal(t, exitCodeFor(sig), <-w.exits)
		require.Contains(t, w.stderr.String(), "stopping before the run began")
	}
}

// TestHandedOnSignalBeforeTheRunStopsIt: a signal a sweep's worker hands on
// to a run still in its setup must not exit the process (the worker's other
// runs would lose their last updates): the run is told to stop at its first
// check instead, and ends with the signal's code.
func TestHandedOnSignalBeforeTheRunStopsIt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGUSR1} {
		w := newSignalWatch(t, false)
		w.sigs <- handedOn{sig}
		select {
		case <-w.in.stop:
		case code := <-w.exits:
			t.Fatalf("%v: exit %d before the run began: %q", sig, code, w.stderr.String())
		}
		require.Equal(t, syscall.Signal(sig), w.in.signal())
		require.Equal(t, 128+int(sig), w.in.code())
	}
}

// TestSIGUSR1IsAnInterrupt: Slurm warns a job with SIGUSR1
// (--signal=USR1@120) before its time ends; the train command saves and
// exits 138 as it does 143 for SIGTERM.
func TestSIGUSR1IsAnInterrupt(t *testing.T) {
	w := newSignalWatch(t, true)
	w.sigs <- syscall.SIGUSR1
	<-w.in.stop
	require.Equal(t, 138, w.in.code())
}

package cli

import (
	"time"

	"github.com/simdrl/simdrl/trainer"
)

// hooks let this package's tests hold a real run on events instead of
// racing its length with a signal: the test binary, started again as the
// command (child_test.go), sets them; in the command they are nil.
var hooks struct {
	// at is called at the command's milestones: "watching" (signals are
	// handled, before anything else), "searching" (a task's levels are
	// about to be searched), "running" (training or the evaluation is about
	// to begin), "stopping" (a signal handed on by a sweep came before the
	// run began: it stops at its first check). It may block: the command
	// waits.
	at func(milestone string)
	// updated is called after each update u with the interrupt's channel;
	// the run waits for it to return.
	updated func(u int, stop <-chan struct{})
	// settle, when set, replaces signalBurst's timer: the end of the first
	// signal's burst (interrupts).
	settle func() <-chan time.Time
}

// milestone tells hooks.at of one, when it is set.
func milestone(name string) {
	if hooks.at != nil {
		hooks.at(name)
	}
}

// hookUpdates makes r call hooks.updated after each update it is told of.
func hookUpdates(r *trainer.Reporter, stop <-chan struct{}) {
	updated := r.Updated
	r.Updated = func(u int, rate float64, st trainer.UpdateStats) {
		if updated != nil {
			updated(u, rate, st)
		}
		hooks.updated(u, stop)
	}
}

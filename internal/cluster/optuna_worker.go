package cluster

import "fmt"

// Worker asks the study for trials, trains each and tells the study its
// value, until the study has Trials complete trials. Any number of workers
// may share one study: its storage numbers the trials, so none is run
// twice. Two workers that each see Trials-1 complete trials both ask, so a
// study may end with up to (workers-1) more than Trials, as with Optuna's
// own MaxTrialsCallback.
type Worker struct {
	Study  Optuna
	Trials int
	// Train runs trial t and returns its objective's value and the train
	// command's exit code (0 done; 2 bad flags: the search space's fault;
	// 128+signal interrupted; else failed).
	Train func(t Trial) (value float64, code int)
	// Stopped says whether the worker was asked to stop (a signal between
	// trials), and with which exit code.
	Stopped func() (code int, stopped bool)
	Say     func(format string, a ...any) // a line of progress
}

// maxFailedInARow ends a worker whose trials keep failing (a broken
// machine, base flags that fail at run time): it would otherwise ask and
// fail trials for ever.
const maxFailedInARow = 3

// Run runs trials until the study has its trials (exit code 0), or a trial
// or the optuna command fails for good (1), a trial's flags are refused (2),
// or the worker is stopped (its code). A trial that does not complete is
// told as failed, so that none is left RUNNING.
func (w Worker) Run() int {
	if err := w.Study.Create(); err != nil {
		w.Say("%v", err)
		return 1
	}
	failed := 0
	for {
		if code, stopped := w.Stopped(); stopped {
			return code
		}
		n, err := w.Study.Complete()
		if err != nil {
			w.Say("%v", err)
			return 1
		}
		if n >= w.Trials {
			w.Say("the study %s has %d complete trials (of %d): done", w.Study.Study, n, w.Trials)
			return 0
		}
		t, err := w.Study.Ask()
		if err != nil {
			w.Say("%v", err)
			return 1
		}
		value, code := w.Train(t)
		if code == 0 {
			if err := w.Study.Tell(t.Number, value); err != nil {
				w.Say("%v", err)
				return 1
			}
			w.Say("trial %d: %s", t.Number, fmt.Sprint(value))
			failed = 0
			continue
		}
		if err := w.Study.Fail(t.Number); err != nil {
			w.Say("%v", err)
			return 1
		}
		w.Say("trial %d: failed (exit %d)", t.Number, code)
		switch {
		case code == 2:
			w.Say("trial %d's flags %v were refused: fix the search space or the base flags", t.Number, t.Flags)
			return 2
		case code > 128:
			return code
		}
		if failed++; failed == maxFailedInARow {
			w.Say("%d trials in a row failed: stopping", failed)
			return 1
		}
	}
}

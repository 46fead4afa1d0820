package cli

import (
	"io"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/trainer"
)

// outputs are a training run's outputs while it runs: the checkpoint, the
// metrics, TensorBoard's events and the console, wired into the options
// Drive takes. The report and the plot are written after it (finish).
type outputs struct {
	opt     trainer.Options
	savedAt int      // the update the last checkpoint written holds, -1 before one
	closers []func() // what close releases, in order
}

// openOutputs opens a training run's outputs for tr (stop is the
// interrupt Drive observes). Its errors are usageErrors; on one, what it
// opened is closed again.
func openOutputs(fl files, tr *trainer.Trainer, stdout, stderr io.Writer, stop <-chan struct{}) (*outputs, error) {
	o := &outputs{savedAt: -1}
	o.opt = fl.sampledOptions(trainer.Options{SaveEvery: fl.saveEvery, Quiet: fl.quiet, Interrupt: stop, Exhaustive: fl.exhaustiveOption()})
	if f, ok := terminal(stderr); ok {
		o.opt.Progress = stderr // a pipe or a file gets no status line
		tw, stopWatching := watchWidth(f)
		o.closers = append(o.closers, stopWatching)
		o.opt.ProgressWidth = tw.width
	}
	if fl.save != "" {
		o.opt.Save = func() error {
			f, err := tr.Checkpoint()
			if err != nil {
				return err
			}
			if err := checkpoint.WriteFile(fl.save, f); err != nil {
				return err
			}
			o.savedAt = tr.Updates()
			return nil
		}
	}
	if fl.metrics != "" {
		// A FIFO's open waits for a reader; a signal meanwhile exits at once.
		mf, err := openMetrics(fl.metrics, stderr)
		if err != nil {
			o.close()
			return nil, usageErrorf("-metrics: %v", err)
		}
		o.closers = append(o.closers, func() { mf.Close() })
		o.opt.Metrics = mf
	}
	if fl.tensorboard != "" {
		tb, err := openTensorBoard(fl.tensorboard, stderr)
		if err != nil {
			o.close()
			return nil, usageErrorf("-tensorboard: %v", err)
		}
		o.closers = append(o.closers, func() { tb.Close() })
		o.opt.Evaluated = tb.evaluated
	}
	o.opt.Reporter = trainer.Console(tr, stdout, o.opt) // the command's rendering of the run
	if hooks.updated != nil {
		hookUpdates(o.opt.Reporter, stop)
	}
	return o, nil
}

// close releases the outputs, the last opened first (as run's defers did).
func (o *outputs) close() {
	for i := len(o.closers) - 1; i >= 0; i-- {
		o.closers[i]()
	}
	o.closers = nil
}

package cli

import "os"

// termWidth is the width of the terminal the status line is drawn on
// (trainer.Options.ProgressWidth): read once, and again after a window is
// resized (SIGWINCH, which queues on resized; a resize between two lines is
// seen at the second). It is read by the run's goroutine alone.
type termWidth struct {
	query   func() int       // the terminal's columns now, 0 when unknown
	resized <-chan os.Signal // SIGWINCH; nil where there is none
	cols    int
	read    bool
}

// width is the terminal's columns (0: unknown).
func (w *termWidth) width() int {
	stale := !w.read
	for drained := false; !drained; {
		select {
		case <-w.resized:
			stale = true
		default:
			drained = true
		}
	}
	if stale {
		w.cols, w.read = w.query(), true
	}
	return w.cols
}

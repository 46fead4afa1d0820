package trainer

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// failingWriter accepts n bytes, then writes what still fits and fails, as a
// disk that fills up does.
type failingWriter struct {
	n   int
	got bytes.Buffer
}

var errDiskFull = errors.New("no space left on device")

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return w.got.Write(p)
	}
	k := w.n
	w.n = 0
	w.got.Write(p[:k])
	return k, errDiskFull
}

// TestOutputErrorSavesTheLastUpdate: a failed output (Metrics, the
// Evaluated callback, a Reporter's Evaluated hook) is not a training error:
// the run stops, the last completed update is saved, the error is an
// *OutputError naming the output and the report's Error says it.
func TestOutputErrorSavesTheLastUpdate(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  func(o *Options)
		what string
	}{
		{"metrics fails in the third line", func(o *Options) {
			o.Metrics = &lineFailingWriter{lines: 2}
		}, "metrics"},
		{"Evaluated fails at update 15", func(o *Options) {
			o.Evaluated = func(p EvalPoint, _ bool) error {
				if p.Update == 15 {
					return errDiskFull
				}
				return nil
			}
		}, "Evaluated"},
		{"a Reporter's Evaluated fails at update 15", func(o *Options) {
			o.Reporter = &Reporter{Evaluated: func(p EvalPoint, _, _ []EvalResult, _ bool) error {
				if p.Update == 15 {
					return errDiskFull
				}
				return nil
			}}
		}, "Evaluated"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, _ := newFakeRun(driveConfig(), func(call, int) float64 { return 0.5 })
			var saved []int
			opt := Options{Quiet: true, SaveEvery: 7, Save: func() error { saved = append(saved, tr.Updates()); return nil }}
			c.opt(&opt)
			rep, err := Drive(tr, &bytes.Buffer{}, opt)
			require.Error(t, err)
			require.ErrorIs(t, err, errDiskFull)
			var oe *OutputError
			require.Truef(t, errors.As(err, &oe), "%T %v is no *OutputError", err, err)
			require.Contains(t, err.Error(), c.what)
			require.Equal(t, []int{7, 14, 15}, saved, "the last completed update is saved")
			require.Equal(t, 15, rep.Updates)
			require.Equal(t, err.Error(), rep.Error)
			require.False(t, rep.Interrupted)
		})
	}
}

// TestTrainingErrorSavesNothing: an update that fails (a NaN, the task's
// panic) is no output error: nothing is saved after it, and the report has
// its error.
func TestTrainingErrorSavesNothing(t *testing.T) {
	tr, e := newFakeRun(driveConfig(), func(call, int) float64 { return 0.5 })
	e.evalErr = func(c call) error {
		if c.round == 10 {
			return fmt.Errorf("NaN in the value head")
		}
		return nil
	}
	var saved []int
	rep, err := Drive(tr, &bytes.Buffer{}, Options{Quiet: true, SaveEvery: 7, Save: func() error { saved = append(saved, tr.Updates()); return nil }})
	require.Error(t, err)
	var oe *OutputError
	require.False(t, errors.As(err, &oe))
	require.Equal(t, []int{7}, saved)
	require.Equal(t, err.Error(), rep.Error)
}

// lineFailingWriter accepts whole lines, then writes half of the next write
// and fails, as a disk that fills up does. It counts lines, not bytes: a
// metrics line holds the measured speed, whose length varies with the
// machine's load, so a byte count would fail in another line when loaded.
type lineFailingWriter struct {
	lines int // the lines still accepted
	got   bytes.Buffer
}

func (w *lineFailingWriter) Write(p []byte) (int, error) {
	if n := bytes.Count(p, []byte{'\n'}); n <= w.lines {
		w.lines -= n
		return w.got.Write(p)
	}
	k := len(p) / 2
	w.lines = 0
	w.got.Write(p[:k])
	return k, errDiskFull
}

// TestOutputErrorAndFailedSave: when the save that follows an output's
// failure fails too, the error says both.
func TestOutputErrorAndFailedSave(t *testing.T) {
	tr, _ := newFakeRun(driveConfig(), func(call, int) float64 { return 0.5 })
	rep, err := Drive(tr, &bytes.Buffer{}, Options{Quiet: true, Metrics: &failingWriter{},
		Save: func() error { return errors.New("read-only file system") }})
	require.EqualError(t, err, "writing metrics: no space left on device, and saving after update 5 failed too: read-only file system")
	require.ErrorIs(t, err, errDiskFull)
	require.Equal(t, err.Error(), rep.Error)
}

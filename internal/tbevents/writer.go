package tbevents

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Writer appends events to one new file of a run directory.
type Writer struct {
	f    *os.File
	size int64 // the file's size: its whole records
}

// Create makes dir (and its parents) if missing and a new events file in
// it, events.out.tfevents.<unix seconds>.<hostname>, opened by its
// FileVersion event. A name already taken (a run resumed within the same
// second) gets a suffix .1, .2, …: an existing file is never appended to or
// replaced.
func Create(dir string) (*Writer, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "localhost"
	}
	now := time.Now()
	base := filepath.Join(dir, fmt.Sprintf("events.out.tfevents.%d.%s", now.Unix(), host))
	name := base
	for i := 1; ; i++ {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			name = base + "." + strconv.Itoa(i)
			continue
		}
		if err != nil {
			return nil, err
		}
		w := &Writer{f: f}
		if err := w.write(versionEvent(seconds(now))); err != nil {
			f.Close()
			return nil, err
		}
		return w, nil
	}
}

// Name is the file's path.
func (w *Writer) Name() string { return w.f.Name() }

// Write appends step's scalars as one event stamped with the time now. A
// record goes out in one write, unbuffered: a run killed keeps every
// event written before. The part of a record that a failed write left (a
// full disk writes what fits) is taken back at once, so that the file
// stays whole records for TensorBoard; were that to fail too, the next
// run's RepairDir removes it.
func (w *Writer) Write(step int64, scalars []Scalar) error {
	return w.write(scalarsEvent(seconds(time.Now()), step, scalars))
}

// Close closes the file.
func (w *Writer) Close() error { return w.f.Close() }

func (w *Writer) write(event []byte) error {
	n, err := w.f.Write(appendRecord(nil, event))
	if err != nil {
		if n > 0 && w.f.Truncate(w.size) == nil {
			_, _ = w.f.Seek(w.size, io.SeekStart) // the next record where this one began
		}
		return err
	}
	w.size += int64(n)
	return nil
}

// seconds is t as an event's wall_time: seconds since the epoch.
func seconds(t time.Time) float64 {
	return float64(t.UnixNano()) / 1e9
}

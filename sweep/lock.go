package sweep

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// ErrLocked is TryLock's answer when another worker, alive, holds the run.
var ErrLocked = errors.New("another worker holds this run")

// Lock is a run held by this worker: flock(2) on the run's lock file. The
// kernel drops it when its holder dies however it dies (SIGKILL, a node's
// OOM killer), so a killed worker never leaves a run locked; a live one
// keeps every other worker, in this process or another, off it.
type Lock struct{ f *os.File }

// TryLock takes the run's lock without waiting: ErrLocked when it is held.
func (d RunDir) TryLock() (*Lock, error) {
	if err := os.MkdirAll(string(d), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(d.Lock(), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			return nil, ErrLocked
		}
		return nil, &os.PathError{Op: "flock", Path: d.Lock(), Err: err}
	}
	return &Lock{f}, nil
}

// Unlock releases the run (closing the file drops the flock).
func (l *Lock) Unlock() error { return l.f.Close() }

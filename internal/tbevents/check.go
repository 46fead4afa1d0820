package tbevents

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// CheckDir fails, before any work, when Create could not write a file in
// dir: dir or the nearest of its parents that exists is not a directory, a
// missing one is a symbolic link to nothing (Create could not make it), or
// no file can be created there. It creates nothing (a probe file is
// removed at once).
func CheckDir(dir string) error {
	d := dir
	for {
		fi, err := os.Stat(d)
		if err == nil && !fi.IsDir() {
			if d == dir {
				return fmt.Errorf("%s is not a directory", dir)
			}
			return fmt.Errorf("%s: %s is not a directory", dir, d)
		}
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			return fmt.Errorf("%s: %w", dir, err)
		}
		if target, err := os.Readlink(d); err == nil && d == dir {
			return fmt.Errorf("%s is a symbolic link to %s, which does not exist", dir, target)
		} else if err == nil {
			return fmt.Errorf("%s: %s is a symbolic link to %s, which does not exist", dir, d, target)
		}
		parent := filepath.Dir(d)
		if parent == d {
			return fmt.Errorf("%s: %w", dir, err)
		}
		d = parent
	}
	probe, err := os.CreateTemp(d, ".tfevents-probe-*")
	if err != nil {
		return fmt.Errorf("%s: cannot create a file in %s: %w", dir, d, unwrapPath(err))
	}
	name := probe.Name()
	probe.Close()
	return os.Remove(name)
}

// unwrapPath drops a *fs.PathError's repetition of the path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Package atomicfile writes files so that a reader (or a crash) never sees
// half of one: checkpoints, reports and plots all go through it.
package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Write writes data to path atomically, mode 0644.
func Write(path string, data []byte) error {
	return WriteWith(path, data, func(f *os.File, data []byte) error {
		_, err := f.Write(data)
		return err
	})
}

// WriteWith is Write with the function that fills the temporary file (tests
// replace it to simulate a failure in the middle of a write). It writes a
// temporary file in the same directory, syncs and closes it, renames it over
// path and syncs the directory. A failure at any point leaves path as it was
// and removes the temporary file; a crash of the process leaves path as it
// was and at most a temporary file named .<base>.tmp-* beside it.
func WriteWith(path string, data []byte, writeTemp func(*os.File, []byte) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeTemp(tmp, data); err != nil {
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		done = true
		return err
	}
	done = true
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("sync directory: %w", err)
	}
	return nil
}

// syncDir makes a rename in dir durable. File systems that cannot sync a
// directory (EINVAL) are let through.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

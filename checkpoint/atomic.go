package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// writeTemp writes data to the temporary file; tests replace it to simulate a
// crash in the middle of a write.
var writeTemp = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// WriteFile encodes f and writes it to path atomically: it writes a temporary
// file in the same directory, syncs and closes it, renames it over path and
// syncs the directory. A failure at any point leaves path as it was (the old
// checkpoint, or nothing) and removes the temporary file; a crash of the
// process leaves path as it was and at most a temporary file named
// .<base>.tmp-* beside it.
func WriteFile(path string, f *File) error {
	data, err := Encode(f)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return fmt.Errorf("checkpoint: write %s: %w", path, err)
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := writeTemp(tmp, data); err != nil {
		return fmt.Errorf("checkpoint: write %s: %w", path, err)
	}
	if err := tmp.Chmod(0o644); err != nil {
		return fmt.Errorf("checkpoint: write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("checkpoint: write %s: sync: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("checkpoint: write %s: close: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		done = true
		return fmt.Errorf("checkpoint: write %s: %w", path, err)
	}
	done = true
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("checkpoint: write %s: sync directory: %w", path, err)
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

// ReadFile reads and decodes the checkpoint at path.
func ReadFile(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	f, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	return f, nil
}

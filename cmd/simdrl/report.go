package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/simdrl/simdrl/trainer"
)

// checkWritable fails early, before any training, when path cannot be written.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return &os.PathError{Op: "write", Path: path, Err: os.ErrExist}
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".simdrl-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// writeReport writes the JSON report atomically: a temporary file in the
// same folder, then a rename, so a crash never leaves half a report.
func writeReport(path string, rep *trainer.Report) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".simdrl-report-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}

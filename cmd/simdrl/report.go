package main

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/simdrl/simdrl/internal/atomicfile"
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

// writeReport writes the JSON report atomically.
func writeReport(path string, rep *trainer.Report) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'))
}

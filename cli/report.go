package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/simdrl/simdrl/internal/atomicfile"
	"github.com/simdrl/simdrl/trainer"
)

// checkWritable fails early, before any training, when path cannot be written
// (atomicfile.Check: a directory, a missing directory, one where no file can
// be created, a device or FIFO this process may not write).
func checkWritable(path string) error {
	return atomicfile.Check(path)
}

// output is an output flag and its path ("" when not given).
type output struct{ flag, path string }

// checkOutputs checks each given output with checkWritable (the error names
// the flag) and refuses two outputs that name the same file, however spelled
// (a symbolic or hard link, dir/./x): one would overwrite the other. Two
// outputs to one device or FIFO (-report /dev/null -save /dev/null, or
// /dev/stdout as a terminal or pipe) are let through: writing there replaces
// nothing. No output may name an input (-load, -resume): the run would
// replace or append to the checkpoint it reads. -save may name -resume's
// file, the loop of a run that is stopped and resumed (a sweep's): the
// checkpoint is read whole before the run starts and replaced atomically,
// so it holds the one update or the next, never a mix.
func checkOutputs(outs, inputs []output) error {
	var given []output
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if err := checkWritable(o.path); err != nil {
			return fmt.Errorf("%s: %v", o.flag, err)
		}
		given = append(given, o)
	}
	for _, in := range inputs {
		if in.path == "" {
			continue
		}
		for _, o := range given {
			if in.flag == "-resume" && o.flag == "-save" {
				continue
			}
			same, err := atomicfile.SameFile(in.path, o.path)
			if err != nil {
				return fmt.Errorf("%s: %v", o.flag, err)
			}
			if same {
				return fmt.Errorf("%s %s names the file that %s reads (%s): it would be overwritten; write to another file", o.flag, o.path, in.flag, in.path)
			}
		}
	}
	for i, a := range given {
		for _, b := range given[i+1:] {
			same, err := atomicfile.SameFile(a.path, b.path)
			if err != nil {
				return fmt.Errorf("%s: %v", b.flag, err)
			}
			if !same {
				continue
			}
			if fi, err := os.Stat(a.path); err == nil && !fi.Mode().IsRegular() {
				continue
			}
			if a.path == b.path {
				return fmt.Errorf("%s and %s name the same file %s", a.flag, b.flag, a.path)
			}
			return fmt.Errorf("%s %s and %s %s name the same file", a.flag, a.path, b.flag, b.path)
		}
	}
	return nil
}

// openMetrics opens the -metrics file for appending (atomicfile.OpenAppend: a
// regular file created if missing, a symbolic link followed, a device or FIFO
// opened in place, a directory refused). A regular file whose last line was
// cut off (a run killed, or a full disk, while writing it) is first cut to
// its last whole line (atomicfile.OpenAppendLines), with a note on stderr.
func openMetrics(path string, stderr io.Writer) (*metricsFile, error) {
	f, torn, err := atomicfile.OpenAppendLines(path, json.Valid)
	if err != nil {
		return nil, err
	}
	if torn > 0 {
		fmt.Fprintf(stderr, "simdrl: -metrics %s: removed its cut-off last line (%d bytes), left by a run stopped while writing it\n", path, torn)
	}
	m, err := newMetricsFile(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return m, nil
}

// metricsFile is the -metrics file: trainer.Options.Metrics, which writes
// each line in one Write; a failure is the run's output error.
type metricsFile struct {
	*os.File
	end int64 // a regular file's size after its last whole line; -1 for a device or FIFO
}

// newMetricsFile is f as the -metrics file.
func newMetricsFile(f *os.File) (*metricsFile, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	m := &metricsFile{File: f, end: -1}
	if fi.Mode().IsRegular() {
		m.end = fi.Size()
	}
	return m, nil
}

// Write writes line p. The part of a line that a failed write left (a
// full disk writes what fits) is taken back from a regular file at once,
// so that the file stays whole lines for its readers; were that to fail
// too, the next run's openMetrics removes it.
func (m *metricsFile) Write(p []byte) (int, error) {
	n, err := m.File.Write(p)
	if err != nil {
		if m.end >= 0 && n > 0 {
			_ = m.File.Truncate(m.end)
		}
		return n, &trainer.OutputError{Output: "-metrics", Err: err}
	}
	if m.end >= 0 {
		m.end += int64(n)
	}
	return n, nil
}

// writeReport writes the JSON report (atomically to a regular file).
func writeReport(path string, rep *trainer.Report) error {
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(b, '\n'))
}

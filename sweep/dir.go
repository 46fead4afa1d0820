package sweep

import (
	"os"
	"path/filepath"

	"github.com/simdrl/simdrl/internal/atomicfile"
)

// RunDir is a run's directory, DIR/<id>/, and the files in it.
type RunDir string

// Of is the directory of run id under root.
func Of(root, id string) RunDir { return RunDir(filepath.Join(root, id)) }

func (d RunDir) path(name string) string { return filepath.Join(string(d), name) }

func (d RunDir) Checkpoint() string  { return d.path("checkpoint.st") }
func (d RunDir) Report() string      { return d.path("report.json") }
func (d RunDir) Metrics() string     { return d.path("metrics.jsonl") }
func (d RunDir) TensorBoard() string { return d.path("tensorboard") }
func (d RunDir) Log() string         { return d.path("log") }
func (d RunDir) Lock() string        { return d.path("lock") }

// Done is the marker of a finished run, written last: its report holds no
// error. A run with it is never run again.
func (d RunDir) Done() string { return d.path("done") }

// Finished reports whether the run's done marker is there.
func (d RunDir) Finished() bool {
	_, err := os.Stat(d.Done())
	return err == nil
}

// MarkDone writes the done marker (atomically: it is there whole or not).
func (d RunDir) MarkDone() error { return atomicfile.Write(d.Done(), []byte("done\n")) }

// HasCheckpoint reports whether an earlier attempt left a checkpoint to
// resume from.
func (d RunDir) HasCheckpoint() bool {
	fi, err := os.Stat(d.Checkpoint())
	return err == nil && fi.Mode().IsRegular()
}

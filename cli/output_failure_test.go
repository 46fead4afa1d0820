package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simdrl/simdrl/internal/tbevents"
	"github.com/stretchr/testify/require"
)

// fullEvents is an events writer on a full disk from update failAt on.
type fullEvents struct{ failAt int64 }

func (f fullEvents) Write(step int64, _ []tbevents.Scalar) error {
	if step >= f.failAt {
		return &os.PathError{Op: "write", Path: "tb/events.out.tfevents.1.host", Err: syscall.ENOSPC}
	}
	return nil
}
func (fullEvents) Close() error { return nil }

// TestFailedOutputKeepsTheCheckpoint: an output that cannot be written
// mid-run (-metrics on a full disk, -tensorboard's file) or at the end
// (-report, -plot) is exit 1 with its error, and the checkpoint of the last
// completed update is written all the same; the report says what failed.
func TestFailedOutputKeepsTheCheckpoint(t *testing.T) {
	dir := t.TempDir()
	fullPNG := filepath.Join(dir, "full.png")
	require.NoError(t, os.Symlink("/dev/full", fullPNG))
	for _, c := range []struct {
		name    string // also the files' names
		args    []string
		updates float64 // in the checkpoint and the report
		msg     string
	}{
		{"metrics", []string{"-metrics", "/dev/full"}, 2, "simdrl: writing -metrics: write /dev/full: no space left on device\n"},
		{"tensorboard", []string{"-tensorboard", filepath.Join(dir, "tb")}, 4, "simdrl: writing -tensorboard: write tb/events.out.tfevents.1.host: no space left on device\n"},
		{"plot", []string{"-plot", fullPNG}, 6, "simdrl: -plot: write " + fullPNG + ": no space left on device\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer func(f func(string) (eventsWriter, error)) { createEvents = f }(createEvents)
			createEvents = func(string) (eventsWriter, error) { return fullEvents{failAt: 4}, nil }
			ck, rep := filepath.Join(dir, c.name+".st"), filepath.Join(dir, c.name+".json")
			code, _, stderr := runCLI(append(small, append(c.args, "-updates", "6", "-save", ck, "-report", rep)...)...)
			require.Equal(t, 1, code, stderr)
			require.Contains(t, stderr, c.msg)
			require.FileExists(t, ck, "the checkpoint is written")
			r := readReport(t, rep)
			require.Equal(t, c.updates, r["updates"])
			require.Contains(t, r["error"], strings.TrimSuffix(strings.TrimPrefix(c.msg, "simdrl: "), "\n"), "the report says what failed")
			if c.updates < 6 {
				require.Contains(t, stderr, fmt.Sprintf("checkpoint after update %v in %s", c.updates, ck))
				require.Contains(t, stderr, "continue with -resume "+ck)
			}
		})
	}
	// -report itself on a full disk: the checkpoint is there.
	ck := filepath.Join(dir, "report.st")
	code, _, stderr := runCLI(append(small, "-updates", "4", "-save", ck, "-report", "/dev/full")...)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "simdrl: -report: write /dev/full: no space left on device\n")
	require.FileExists(t, ck)
}

// TestFailedRunReportHasTheError: a run that fails (here its checkpoint
// cannot be written) has its error in the report, as the output failures
// above.
func TestFailedRunReportHasTheError(t *testing.T) {
	rep := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runCLI(append(small, "-updates", "4", "-save", "/dev/full", "-report", rep)...)
	require.Equal(t, 1, code, stderr)
	require.Regexp(t, `^simdrl: saving after update 4: .*write /dev/full: no space left on device\n$`, stderr)
	require.Equal(t, strings.TrimSuffix(strings.TrimPrefix(stderr, "simdrl: "), "\n"), readReport(t, rep)["error"])
}

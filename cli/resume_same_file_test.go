package cli

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestResumeSavesToItsOwnCheckpoint: -resume X -save X (a sweep's loop:
// each attempt continues its run's one checkpoint) was refused as an output
// naming an input. The checkpoint is read whole before training and written
// atomically, so the run ends bit-identical to one never interrupted, and X
// then holds the last update; by another name (a symlink) too.
func TestResumeSavesToItsOwnCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process; covered by the full test run")
	}
	dir := t.TempDir()
	args := append([]string{"-updates", "6", "-threads", "1"}, quick...)
	full := filepath.Join(dir, "full.json")
	code, _, stderr := runCLI(append(args, "-report", full)...)
	require.Equal(t, 0, code, stderr)

	for _, via := range []string{"same", "symlink"} {
		ck := filepath.Join(dir, via+".st")
		c := startChild(t, "hold=3", false, append(args, "-save", ck)...)
		c.await(t, "child: held at update 3")
		c.signal(t, syscall.SIGTERM, false)
		code, stderr := c.exit(t)
		require.Equal(t, 143, code, stderr)
		save := ck
		if via == "symlink" {
			save = filepath.Join(dir, "link.st")
			require.NoError(t, os.Symlink(ck, save))
		}
		rep := filepath.Join(dir, via+".json")
		code, out, stderr := runCLI("-resume", ck, "-save", save, "-report", rep)
		require.Equal(t, 0, code, "%s: %s", via, stderr)
		require.Contains(t, out, "resuming after update 3")
		require.Equal(t, readReport(t, full)["param_sha256"], readReport(t, rep)["param_sha256"], via)

		// The checkpoint now holds update 6: resuming it trains nothing.
		again := filepath.Join(dir, via+"-again.json")
		code, _, stderr = runCLI("-resume", ck, "-report", again)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, 6.0, readReport(t, again)["updates"], via)
		require.Equal(t, readReport(t, full)["param_sha256"], readReport(t, again)["param_sha256"], via)
	}
}

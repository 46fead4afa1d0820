package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestInterruptSaysWhatItKeeps: a run interrupted without -save said
// "keeping the last completed update", and nothing was kept. The signal is
// delivered after update 2 by the update hook (an event, not a delay); the
// test waits until the watcher has taken it before the run goes on.
func TestInterruptSaysWhatItKeeps(t *testing.T) {
	defer func() { hooks.updated = nil }()
	interrupt := func(args ...string) (int, string) {
		sigs := make(chan os.Signal, 1)
		hooks.updated = func(u int, stop <-chan struct{}) {
			if u == 2 {
				sigs <- syscall.SIGINT
				<-stop
			}
		}
		var o, e bytes.Buffer
		code := run(append(append([]string{}, small...), append([]string{"-updates", "40", "-stop-at", "0", "-explain", "0", "-final-episodes", "0"}, args...)...), &o, &e, sigs)
		return code, e.String()
	}

	code, stderr := interrupt()
	require.Equal(t, 130, code, stderr)
	require.NotContains(t, stderr, "keeping the last completed update")
	require.Contains(t, stderr, "nothing will be saved (no -save)")
	require.Contains(t, stderr, "simdrl: stopped after update 2 with nothing saved: run with -save FILE to keep an interrupted run, and -resume FILE to continue it\n")
	require.NotContains(t, stderr, "checkpoint after update")

	ck := filepath.Join(t.TempDir(), "run.st")
	code, stderr = interrupt("-save", ck)
	require.Equal(t, 130, code, stderr)
	require.Contains(t, stderr, "saving the last completed update to "+ck)
	require.Contains(t, stderr, "simdrl: checkpoint after update 2 in "+ck+"; continue with -resume "+ck+"\n")
	require.NotContains(t, stderr, "nothing")
	_, err := os.Stat(ck)
	require.NoError(t, err, "the checkpoint the message promised")
}

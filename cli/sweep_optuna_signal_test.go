package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestSweepOptunaSignalFailsTheTrialAndStops: a worker whose trial is
// training when SIGTERM comes stops the trial at its next chunk (its report
// written, interrupted), tells the study the trial failed instead of
// leaving it running, asks for no other, and exits 143. The study is a
// stand-in optuna command (--optuna) that notes what it is told; the
// trial holds after update 10 until the signal is handled, so the signal
// lands mid-run on an event.
func TestSweepOptunaSignalFailsTheTrialAndStops(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "optuna")
	require.NoError(t, os.WriteFile(fake, []byte(`#!/bin/bash
cd "$(dirname "$0")"
echo "$1" >> calls
case "$1" in
ask) echo '{"number": 0, "params": {"lr": 0.004}}' ;;
trials) echo '[]' ;;
tell) shift; echo "$*" | sed 's/ --storage.*//' >> told ;;
esac
`), 0o755))
	space := filepath.Join(dir, "space.json")
	require.NoError(t, os.WriteFile(space, []byte(`{"lr": {"name": "FloatDistribution", "attributes": {"low": 0.001, "high": 0.01}}}`), 0o644))
	trials := filepath.Join(dir, "trials")
	w := startChild(t, "hold=10", false, "sweep", "optuna", "--optuna", fake, "--storage", "sqlite:///unused.db",
		"--study", "s", "--space", space, "--trials", "5", "--objective", "solve", "-dir", trials,
		"--", "-task", "calc", "-updates", "40", "-batch", "16", "-threads", "1")
	w.await(t, "child: held at update 10")
	w.signal(t, syscall.SIGTERM, false)
	code, stderr := w.exit(t)
	require.Equal(t, 143, code, stderr)

	told, err := os.ReadFile(filepath.Join(dir, "told"))
	require.NoError(t, err)
	require.Equal(t, "--trial-number 0 --state fail\n", string(told))
	calls, err := os.ReadFile(filepath.Join(dir, "calls"))
	require.NoError(t, err)
	require.Equal(t, []string{"create-study", "trials", "ask", "tell"}, strings.Fields(string(calls)), "no trial asked after the signal")
	data, err := os.ReadFile(filepath.Join(trials, "trial-0", "report.json"))
	require.NoError(t, err)
	var report trainer.Report
	require.NoError(t, json.Unmarshal(data, &report))
	require.True(t, report.Interrupted, "the trial stopped at its next chunk and wrote its report")
	require.Equal(t, 10, report.Updates)
	require.Equal(t, 0.004, report.Config.LR)
}

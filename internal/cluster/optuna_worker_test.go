package cluster

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeOptuna is a stand-in for the optuna command, its study in dir:
// create-study notes itself, ask hands out numbers 0, 1, … with lr 0.5,
// tell appends its arguments to told and counts the complete trials, which
// trials lists.
func fakeOptuna(t *testing.T) (Optuna, string) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "optuna")
	require.NoError(t, os.WriteFile(script, []byte(`#!/bin/bash
cd "$(dirname "$0")"
case "$1" in
create-study) echo created >> created ;;
ask) n=$(cat next 2>/dev/null || echo 0); echo $((n+1)) > next; echo "{\"number\": $n, \"params\": {\"lr\": 0.5}}" ;;
tell) shift; echo "$*" | sed 's/ --storage.*//' >> told
      case "$*" in *--values*) echo x >> complete ;; esac ;;
trials) printf '['; sep=; for _ in $(cat complete 2>/dev/null); do printf '%s{"state": "COMPLETE"}' "$sep"; sep=,; done; echo ']' ;;
*) echo "unknown $1" >&2; exit 1 ;;
esac
`), 0o755))
	return Optuna{Command: []string{script}, Storage: "sqlite:///x", Study: "s", Direction: "maximize", Space: "{}"}, dir
}

func told(t *testing.T, dir string) []string {
	data, err := os.ReadFile(filepath.Join(dir, "told"))
	if os.IsNotExist(err) {
		return nil
	}
	require.NoError(t, err)
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// runWorker runs a Worker of trials trials whose trial i returns codes[i]
// (past the list: 0) and value i/10.
func runWorker(t *testing.T, trials int, codes []int) (int, []string, []Trial) {
	study, dir := fakeOptuna(t)
	var ran []Trial
	w := Worker{Study: study, Trials: trials,
		Train: func(tr Trial) (float64, int) {
			ran = append(ran, tr)
			code := 0
			if tr.Number < len(codes) {
				code = codes[tr.Number]
			}
			return float64(tr.Number) / 10, code
		},
		Stopped: func() (int, bool) { return 0, false },
		Say:     func(string, ...any) {},
	}
	return w.Run(), told(t, dir), ran
}

func TestWorkerRunsUntilTheStudyHasItsTrials(t *testing.T) {
	code, told, ran := runWorker(t, 3, nil)
	require.Equal(t, 0, code)
	require.Equal(t, []string{"--trial-number 0 --values 0", "--trial-number 1 --values 0.1", "--trial-number 2 --values 0.2"}, told)
	require.Len(t, ran, 3)
	require.Equal(t, []string{"-lr", "0.5"}, ran[0].Flags)
}

func TestWorkerTellsAFailedTrialAndGoesOn(t *testing.T) {
	code, told, _ := runWorker(t, 2, []int{1})
	require.Equal(t, 0, code)
	require.Equal(t, []string{"--trial-number 0 --state fail", "--trial-number 1 --values 0.1", "--trial-number 2 --values 0.2"}, told)
}

func TestWorkerStopsOnRefusedFlags(t *testing.T) {
	code, told, _ := runWorker(t, 3, []int{0, 2})
	require.Equal(t, 2, code)
	require.Equal(t, []string{"--trial-number 0 --values 0", "--trial-number 1 --state fail"}, told)
}

func TestWorkerStopsWhenItsTrialIsInterrupted(t *testing.T) {
	code, told, _ := runWorker(t, 3, []int{143})
	require.Equal(t, 143, code)
	require.Equal(t, []string{"--trial-number 0 --state fail"}, told, "an interrupted trial is told failed, not left RUNNING")
}

func TestWorkerGivesUpAfterFailuresInARow(t *testing.T) {
	code, told, _ := runWorker(t, 3, []int{1, 1, 1, 1})
	require.Equal(t, 1, code)
	require.Len(t, told, maxFailedInARow)
}

func TestWorkerStoppedBeforeATrialAsksNothing(t *testing.T) {
	study, dir := fakeOptuna(t)
	w := Worker{Study: study, Trials: 3,
		Train:   func(Trial) (float64, int) { t.Fatal("a stopped worker trained"); return 0, 0 },
		Stopped: func() (int, bool) { return 130, true },
		Say:     func(string, ...any) {},
	}
	require.Equal(t, 130, w.Run())
	_, err := os.Stat(filepath.Join(dir, "next"))
	require.True(t, os.IsNotExist(err), "nothing was asked")
}

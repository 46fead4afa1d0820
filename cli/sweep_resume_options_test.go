package cli

import (
	"cmp"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/simdrl/simdrl/sweep"
	"github.com/stretchr/testify/require"
)

// TestSweepResumeKeepsItsEvaluation: a run of a sweep killed after its
// first checkpoint and resumed reports what its twin trained in one go
// reports, the sampled evaluation included (-eval-samples, -eval-pass-k,
// -eval-temperature: options no checkpoint holds, which the resume once
// dropped, so a preempted run lost its pass@k).
func TestSweepResumeKeepsItsEvaluation(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process; covered by the full test run")
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	body := "base: {updates: 8, batch: 32, chunk: 16, eval-every: 2, eval-batch: 10, final-episodes: 20, explain: 0,\n" +
		"  eval-samples: 3, eval-pass-k: 2, eval-temperature: 0.5}\nseeds: {from: 0, to: 0}\n"
	require.NoError(t, os.WriteFile(spec, []byte(body), 0o644))
	manifest, entries := planned(t, dir, spec)
	runs := filepath.Join(dir, "runs")

	c := startChild(t, "hold=5", false, "sweep", "run", manifest, "-dir", runs, "--save-every", "2", "--threads", "1")
	c.await(t, "child: held at update 5")
	require.NoError(t, c.cmd.Process.Kill())
	_ = c.cmd.Wait()

	code, _, stderr := sweepCLI("run", manifest, "-dir", runs, "--threads", "1")
	require.Equal(t, 0, code, stderr)
	d := sweep.Of(runs, entries[0].ID)
	require.Contains(t, readFile(t, d.Log()), "resuming after update 4")

	twin := filepath.Join(dir, "twin.json")
	code, _, stderr = runCLI(append(append([]string{}, entries[0].Args...), "-threads", "1", "-report", twin)...)
	require.Equal(t, 0, code, stderr)
	want, got := readReport(t, twin), readReport(t, d.Report())
	require.Equal(t, want["param_sha256"], got["param_sha256"])
	require.NotEmpty(t, want["sampled"], "the twin's report has its sampled evaluation")
	require.Equal(t, want["sampled"], got["sampled"], "the resumed run's sampled evaluation is its twin's")
}

// TestResumeOptionsCoverTheFiles: every option of the train command that
// no checkpoint holds (a field of files) is either given to a resumed
// sweep run again (resumeOptions), set by the sweep itself, or has no
// place in a sweep's run; a new one must be sorted here, or a preempted
// run could silently lose it.
func TestResumeOptionsCoverTheFiles(t *testing.T) {
	sorted := map[string]string{
		"device": "given", "report": "sweep", "quiet": "resume", "save": "sweep", "load": "none", "resume": "sweep",
		"saveEvery": "sweep", "evalOnly": "none", "metrics": "sweep", "plot": "resume", "tensorboard": "sweep",
		"exhaustive": "resume", "evalSamples": "resume", "evalPassK": "resume", "evalTemperature": "resume",
	}
	flagOf := map[string]string{"saveEvery": "save-every", "evalOnly": "eval-only", "evalSamples": "eval-samples",
		"evalPassK": "eval-pass-k", "evalTemperature": "eval-temperature"}
	ft := reflect.TypeOf(files{})
	for i := range ft.NumField() {
		name := ft.Field(i).Name
		how, ok := sorted[name]
		require.True(t, ok, "files.%s: sort it here (is it given again to a resumed sweep run?)", name)
		flag := cmp.Or(flagOf[name], name)
		require.Equal(t, how == "resume", slices.Contains(resumeOptions, flag), "files.%s (-%s): %s", name, flag, how)
	}
	require.Len(t, sorted, ft.NumField())
	cl, err := parseCommandLine(nil, io.Discard)
	require.NoError(t, err)
	for _, name := range resumeOptions {
		require.NotNil(t, cl.fs.Lookup(name), "-%s is a flag of the train command", name)
	}
}

// TestSweepIDsTellTheSampledEvaluation: two runs that differ only in their
// sampled evaluation train alike but report differently: two ids, as two
// exhaustive bounds are. Without one, the id is what it was before the
// sampled evaluation counted (a manifest planned then still matches).
func TestSweepIDsTellTheSampledEvaluation(t *testing.T) {
	id := func(args ...string) string {
		t.Helper()
		s, err := runID(args)
		require.NoError(t, err, "%v", args)
		return s
	}
	base := []string{"-task", "calc", "-seed", "3"}
	cfg, fl, err := resolveRun(base)
	require.NoError(t, err)
	require.Equal(t, sweep.ID(cfg, fl.exhaustive, sweep.Sampled{}), id(base...))
	plain := id(base...)
	four := id(append(base, "-eval-samples", "4")...)
	require.NotEqual(t, plain, four)
	require.Equal(t, four, id(append(base, "-eval-samples", "4", "-eval-pass-k", "4", "-eval-temperature", "1")...), "the defaults restated")
	require.NotEqual(t, four, id(append(base, "-eval-samples", "4", "-eval-pass-k", "2")...))
	require.NotEqual(t, four, id(append(base, "-eval-samples", "4", "-eval-temperature", "0.5")...))
	require.Equal(t, plain, id(append(base, "-eval-temperature", "0.5")...), "no samples, no sampled evaluation")
}

package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/sweep"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// writeManifest writes a manifest of n tiny calc runs (seeds 0…n-1) with
// their real ids, and returns its path and entries.
func writeManifest(t *testing.T, dir string, n int) (string, []sweep.Entry) {
	t.Helper()
	var entries []sweep.Entry
	for seed := range n {
		args := []string{"-task", "calc", "-updates", "40", "-batch", "16", "-threads", "1", "-final-episodes", "100", "-seed", strconv.Itoa(seed)}
		id, err := runID(args)
		require.NoError(t, err)
		entries = append(entries, sweep.Entry{ID: id, Args: args})
	}
	var b bytes.Buffer
	require.NoError(t, sweep.WriteManifest(&b, entries))
	path := filepath.Join(dir, "manifest.jsonl")
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
	return path, entries
}

// runSweep runs `simdrl sweep args…` in this process.
func runSweep(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Run(append([]string{"sweep"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func TestSweepSlurmWritesScripts(t *testing.T) {
	dir := t.TempDir()
	m, _ := writeManifest(t, dir, 3)
	runs := filepath.Join(dir, "runs")
	code, out, stderr := runSweep("slurm", m, "-dir", runs, "--parallel", "2", "--sbatch=--time=0:05:00")
	require.Equal(t, 0, code, stderr)
	script := filepath.Join(runs, "sweep.sbatch")
	require.Equal(t, "sbatch "+script+"\n", out)
	data, err := os.ReadFile(script)
	require.NoError(t, err)
	exe, err := os.Executable()
	require.NoError(t, err)
	require.Contains(t, string(data), "#SBATCH --array=0-2%2\n")
	require.Contains(t, string(data), "#SBATCH --time=0:05:00\n")
	require.Contains(t, string(data), "'"+exe+"' sweep run '"+m+"' --dir '"+runs+"' --index")
	require.DirExists(t, filepath.Join(runs, "logs"), "Slurm opens the tasks' logs there")

	// Split: two arrays, 2 and 1 entries.
	code, out, stderr = runSweep("slurm", m, "-dir", runs, "--max-array-size", "2", "-o", filepath.Join(dir, "a.sh"))
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "sbatch "+filepath.Join(dir, "a-0.sh")+"\nsbatch "+filepath.Join(dir, "a-1.sh")+"\n", out)
	second, err := os.ReadFile(filepath.Join(dir, "a-1.sh"))
	require.NoError(t, err)
	require.Contains(t, string(second), "#SBATCH --array=0-0\n")
	require.Contains(t, string(second), "index=$((SLURM_ARRAY_TASK_ID + 2))")
}

func TestSweepK8sWritesAJob(t *testing.T) {
	dir := t.TempDir()
	m, _ := writeManifest(t, dir, 3)
	code, out, stderr := runSweep("k8s", m, "--image", "simdrl:test", "--parallelism", "2", "--backoff-limit-per-index", "1")
	require.Equal(t, 0, code, stderr)
	var job struct {
		Spec struct {
			CompletionMode       string `yaml:"completionMode"`
			Completions          int    `yaml:"completions"`
			Parallelism          int    `yaml:"parallelism"`
			BackoffLimitPerIndex int    `yaml:"backoffLimitPerIndex"`
			Template             struct {
				Spec struct {
					Containers []struct {
						Command []string `yaml:"command"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(out), &job))
	require.Equal(t, "Indexed", job.Spec.CompletionMode)
	require.Equal(t, 3, job.Spec.Completions)
	require.Equal(t, 2, job.Spec.Parallelism)
	require.Equal(t, 1, job.Spec.BackoffLimitPerIndex)
	require.Equal(t, []string{"simdrl", "sweep", "run", "/sweep/manifest.jsonl", "--dir", "/sweep"}, job.Spec.Template.Spec.Containers[0].Command)
}

// TestSweepClusterVerbsRefuseBadInput: each refusal is one line and exit 2.
func TestSweepClusterVerbsRefuseBadInput(t *testing.T) {
	dir := t.TempDir()
	m, _ := writeManifest(t, dir, 2)
	space := filepath.Join(dir, "space.json")
	require.NoError(t, os.WriteFile(space, []byte(`{"lr": {"name": "FloatDistribution", "attributes": {"low": 0.001, "high": 0.01}}}`), 0o644))
	badSpace := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(badSpace, []byte(`{"report": {"name": "FloatDistribution", "attributes": {"low": 0, "high": 1}}}`), 0o644))
	optuna := []string{"optuna", "--storage", "sqlite:///" + dir + "/s.db", "--study", "s", "--trials", "2"}
	for _, args := range [][]string{
		{"slurm"},
		{"slurm", filepath.Join(dir, "missing.jsonl")},
		{"slurm", m, "--parallel", "-1", "-dir", dir},
		{"slurm", m, "--max-array-size", "0", "-dir", dir},
		{"slurm", m, "--sbatch", "time=1", "-dir", dir},
		{"k8s", m},
		{"k8s", m, "--image", "x", "--parallelism", "0"},
		{"k8s", m, "--image", "x", "--name", "Bad_Name"},
		{"optuna", "--storage", "sqlite:///x.db", "--study", "s", "--space", space, "--trials", "2"},
		append(append([]string{}, optuna...), "--space", space, "--objective", "speed"),
		append(append([]string{}, optuna...), "--space", space, "--objective", "solve", "--direction", "up"),
		append(append([]string{}, optuna...), "--space", badSpace, "--objective", "solve"),
		append(append([]string{}, optuna...), "--space", space, "--objective", "solve", "--", "-report", "r.json"),
		append(append([]string{}, optuna...), "--space", space, "--objective", "solve", "--", "-updates", "-3"),
		append(append([]string{}, optuna...), "--space", space, "--objective", "solve", "stray"),
	} {
		code, _, stderr := runSweep(args...)
		require.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "%v: one line: %q", args, stderr)
		require.True(t, strings.HasPrefix(stderr, "simdrl: sweep "), "%v: %q", args, stderr)
	}
}

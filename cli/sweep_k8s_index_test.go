package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/simdrl/simdrl/sweep"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// TestSweepK8sPodRunsItsIndexedEntry: the container command of the Job
// that `sweep k8s` writes, run as a pod of an Indexed Job runs it (this
// binary as simdrl, JOB_COMPLETION_INDEX set and no Slurm variable), runs
// the entry of that index and no other.
func TestSweepK8sPodRunsItsIndexedEntry(t *testing.T) {
	dir := t.TempDir()
	m, entries := writeManifest(t, dir, 3)
	runs := filepath.Join(dir, "runs")
	code, out, stderr := runSweep("k8s", m, "--image", "simdrl:test", "-dir", runs, "--pod-manifest", m)
	require.Equal(t, 0, code, stderr)
	var job struct {
		Spec struct {
			Template struct {
				Spec struct {
					Containers []struct {
						Command []string `yaml:"command"`
					} `yaml:"containers"`
				} `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(out), &job))
	command := job.Spec.Template.Spec.Containers[0].Command
	require.Equal(t, "simdrl", command[0])

	const index = 1
	// A pod has no Slurm variable, which sweep run would read first.
	if v, ok := os.LookupEnv("SLURM_ARRAY_TASK_ID"); ok {
		require.NoError(t, os.Unsetenv("SLURM_ARRAY_TASK_ID"))
		t.Cleanup(func() { os.Setenv("SLURM_ARRAY_TASK_ID", v) })
	}
	t.Setenv("JOB_COMPLETION_INDEX", strconv.Itoa(index))
	pod := startChild(t, "", false, command[1:]...)
	code, stderr = pod.exit(t)
	require.Equal(t, 0, code, stderr)
	for i, e := range entries {
		require.Equalf(t, i == index, sweep.Of(runs, e.ID).Finished(), "entry %d (pod index %d): %s", i, index, stderr)
	}
}

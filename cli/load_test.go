package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLoadWithOtherSeeds: a model saved by a run of -seed 2 and evaluated
// with -load under other seeds plays as the same file under -resume with
// those seeds. The evaluation tasks follow -seed, so each -load is compared
// with a -resume of the same seed; -load once kept the token table of its own
// seed's initialisation and scored 0.000 where the saver scored 1.000.
func TestLoadWithOtherSeeds(t *testing.T) { loadWithOtherSeedsOn(t, "cpu") }

// TestCudaLoadWithOtherSeeds is TestLoadWithOtherSeeds with -load on the GPU
// (gpu/emu in CI).
func TestCudaLoadWithOtherSeeds(t *testing.T) {
	needGPU(t)
	loadWithOtherSeedsOn(t, "cuda")
}

func loadWithOtherSeedsOn(t *testing.T, device string) {
	for _, task := range []struct {
		name string
		args []string
	}{
		{"seed", []string{"-updates", "60"}},
		// A reading policy whose items, focus and replay buffer are in the
		// checkpoint (its context and width come from the checkpoint too).
		{"expr", []string{"-task", "expr", "-updates", "40", "-replay", "8"}},
	} {
		t.Run(task.name, func(t *testing.T) { loadWithOtherSeeds(t, device, task.args) })
	}
}

func loadWithOtherSeeds(t *testing.T, device string, train []string) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "s2.safetensors")
	code, _, stderr := runCLI(append([]string{"-seed", "2", "-batch", "64", "-chunk", "32", "-eval-every", "0", "-final-episodes", "0",
		"-explain", "0", "-save", ck}, train...)...)
	require.Equal(t, 0, code, stderr)
	eval := []string{"-eval-only", "-final-episodes", "150", "-explain", "3", "-chunk", "32"} // the chunk orders the sums
	report := func(name string, args ...string) map[string]any {
		p := filepath.Join(dir, name+".json")
		code, _, stderr := runCLI(append(append(args, eval...), "-report", p)...)
		require.Equal(t, 0, code, stderr)
		return readReport(t, p)
	}
	for _, seed := range []string{"0", "9"} {
		want := report("resume-"+seed, "-resume", ck, "-seed", seed)
		t.Run("seed="+seed, func(t *testing.T) {
			got := report("load-"+device+"-"+seed, "-device", device, "-load", ck, "-seed", seed)
			require.Equal(t, want["param_sha256"], got["param_sha256"])
			w, g := want["final"].(map[string]any), got["final"].(map[string]any)
			require.Equal(t, w["solve_rate"], g["solve_rate"])
			require.InDeltaSlice(t, w["mean_reward"], g["mean_reward"], 1e-9, "sums over episodes in each engine's order")
			require.Equal(t, want["explanations"], got["explanations"])
			require.Equal(t, want["exhaustive"], got["exhaustive"])
		})
	}
}

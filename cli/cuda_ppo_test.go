package cli

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCudaPPO: -estimator ppo trains on -device cuda as on the CPU (calc,
// every level mixed, 2 epochs of 3 minibatches, a clip that binds): the run exits 0, the first
// update's training reward is the CPU's exactly and the next ones within
// rounding's drift, and -metrics (an evaluation at update 3) has
// PPO's diagnostics.
func TestCudaPPO(t *testing.T) {
	needGPU(t)
	dir := t.TempDir()
	args := []string{"-task", "calc", "-levels", "a+b, a*b, a*b+c*d", "-curriculum", "mixed", "-estimator", "ppo", "-ppo-epochs", "2", "-clip-coef", "0.01",
		"-ppo-minibatches", "3", "-batch", "48", "-hidden", "32", "-updates", "3", "-eval-every", "3", "-eval-batch", "10", "-final-episodes", "0", "-explain", "0"}
	run := func(device string) ([]any, string) {
		out, metrics := filepath.Join(dir, device+".json"), filepath.Join(dir, device+".jsonl")
		code, _, stderr := runCLI(append(args, "-device", device, "-report", out, "-metrics", metrics)...)
		require.Equal(t, 0, code, "ppo on %s: %s", device, stderr)
		m, err := os.ReadFile(metrics)
		require.NoError(t, err)
		return readReport(t, out)["train_reward"].([]any), string(m)
	}
	want, _ := run("cpu")
	got, metrics := run("cuda")
	t.Logf("ppo: training rewards CPU %v GPU %v", want, got)
	require.Len(t, got, 3)
	require.Equal(t, want[0], got[0], "the first update's rewards")
	for u := 1; u < 3; u++ {
		require.InDelta(t, want[u].(float64), got[u].(float64), 0.02, "update %d's rewards", u+1)
	}
	for _, key := range []string{`"approx_kl"`, `"clip_fraction"`, `"explained_variance"`, `"optimizer_steps":6`} {
		require.Contains(t, metrics, key)
	}
}

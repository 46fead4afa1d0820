package cli

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCudaEstimators: -estimator rloo, grpo and drgrpo with -group K train
// on -device cuda as on the CPU (calc, every level mixed): the run exits 0,
// the first update's training reward is the CPU's exactly (the same groups'
// instances and programs) and the next ones within rounding's drift
// (gpu's updatesMatch).
func TestCudaEstimators(t *testing.T) {
	needGPU(t)
	dir := t.TempDir()
	for i, est := range []string{"rloo", "grpo", "drgrpo"} {
		group := fmt.Sprint(4 - i)
		args := []string{"-task", "calc", "-levels", "a+b, a*b, a*b+c*d", "-curriculum", "mixed", "-estimator", est, "-group", group,
			"-batch", "48", "-hidden", "32", "-updates", "3", "-eval-every", "0", "-final-episodes", "0", "-explain", "0"}
		run := func(device string) []any {
			out := filepath.Join(dir, est+"-"+device+".json")
			code, _, stderr := runCLI(append(args, "-device", device, "-report", out)...)
			require.Equal(t, 0, code, "%s on %s: %s", est, device, stderr)
			r := readReport(t, out)
			return r["train_reward"].([]any)
		}
		want, got := run("cpu"), run("cuda")
		t.Logf("%s -group %s: training rewards CPU %v GPU %v", est, group, want, got)
		require.Len(t, got, 3, est)
		require.Equal(t, want[0], got[0], "%s: the first update's rewards", est)
		for u := 1; u < 3; u++ {
			require.InDelta(t, want[u].(float64), got[u].(float64), 0.02, "%s: update %d's rewards", est, u+1)
		}
	}
}

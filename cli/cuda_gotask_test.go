package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// hopsEnv registers the test-hops task, in the test binary that
// TestCudaTrainsAGoTask runs again (the registry is the process's).
const hopsEnv = "SIMDRL_TEST_HOPS_TASK"

func init() {
	if os.Getenv(hopsEnv) != "" {
		task.Register("test-hops", func(string) (task.Task, error) { return hops{}, nil })
	}
}

// hops is a Go game no kernel knows: hop (+) as many times as the context's
// digit says (1 or 2), then say =; it observes whether it has hopped enough.
type hops struct{}

func (hops) Name() string                     { return "test-hops" }
func (hops) Vocab() int                       { return 5 } // + = 1 2 CTX
func (hops) ContextEnd() int32                { return 4 }
func (hops) NotActions() []int32              { return []int32{2, 3, 4} }
func (hops) Answer() int32                    { return 1 }
func (hops) HoldsOut() bool                   { return false }
func (hops) TokenName(tok int32) string       { return [...]string{"+", "=", "1", "2", "CTX"}[tok] }
func (hops) Observations() int                { return 2 }
func (hops) ObservationName(obs int32) string { return [...]string{"short", "there"}[obs] }
func (hops) Levels() []task.Level {
	return []task.Level{{Name: "hops", Context: 1, Budget: 4, Shortest: 2}}
}
func (hops) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	n := 1 + int32(rng.Below(key.Block(round, episode, 0, purpose)[0], 2))
	in := task.Instance{Level: int32(level), Budget: 4, NContext: 1}
	in.Context[0], in.Data[0] = 1+n, int64(n)
	return in
}
func (hops) NewGame() task.Game { return &hopsGame{} }

type hopsGame struct {
	want, hops int64
	correct    bool
}

func (g *hopsGame) obs() int32 {
	if g.hops >= g.want {
		return 1
	}
	return 0
}
func (g *hopsGame) Reset(in *task.Instance) int32 {
	g.want, g.hops, g.correct = in.Data[0], 0, false
	return g.obs()
}
func (g *hopsGame) Step(tok int32) (int32, float64, bool) {
	if tok != 1 {
		g.hops++
		return g.obs(), 0, false
	}
	g.correct = g.hops == g.want
	if g.correct {
		return g.obs(), 1, true
	}
	return g.obs(), 0, true
}
func (g *hopsGame) Correct() bool { return g.correct }

// TestCudaTrainsAGoTask: -device cuda trains a task registered as a Go game
// (its games stepped on the host between the GPU's policy steps) through
// the command, as the CPU does: the first update's training reward is the
// CPU's exactly, the later ones within rounding's drift, and both solve it.
func TestCudaTrainsAGoTask(t *testing.T) {
	needGPU(t)
	if os.Getenv(hopsEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCudaTrainsAGoTask$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), hopsEnv+"=1")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
		require.Contains(t, string(out), "--- PASS: TestCudaTrainsAGoTask", "the run with the task registered ran")
		t.Logf("%s", out)
		return
	}
	dir := t.TempDir()
	args := []string{"-task", "test-hops", "-steps", "6", "-batch", "32", "-hidden", "16", "-updates", "60", "-eval-every", "0",
		"-final-episodes", "50", "-explain", "0", "-stop-at", "0"}
	run := func(device string) map[string]any {
		out := filepath.Join(dir, device+".json")
		code, _, stderr := runCLI(append(args, "-device", device, "-report", out)...)
		require.Equal(t, 0, code, "%s: %s", device, stderr)
		return readReport(t, out)
	}
	want, got := run("cpu"), run("cuda")
	require.Equal(t, "cuda", got["backend"])
	wr, gr := want["train_reward"].([]any), got["train_reward"].([]any)
	require.Len(t, gr, 60)
	require.Equal(t, wr[0], gr[0], "the first update's rewards")
	for u := 1; u < 5; u++ {
		require.InDelta(t, wr[u].(float64), gr[u].(float64), 0.02, "update %d's rewards", u+1)
	}
	t.Logf("final evaluation: CPU %v, GPU %v", want["final"], got["final"])
	for _, r := range []map[string]any{want, got} {
		require.Equal(t, []any{1.0}, r["final"].(map[string]any)["solve_rate"], "%s solves it", r["backend"])
	}
}

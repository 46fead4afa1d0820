package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/gpu"
	"github.com/stretchr/testify/require"
)

// needGPU skips without a usable GPU (or gpu/emu's stand-in), unless
// SIMDRL_TEST_REQUIRE=cuda asks for failure instead.
func needGPU(t *testing.T) {
	if err := gpu.Available(); err != nil {
		if slices.Contains(strings.Split(os.Getenv("SIMDRL_TEST_REQUIRE"), ","), "cuda") {
			t.Fatalf("SIMDRL_TEST_REQUIRE=cuda but the GPU cannot be used: %v", err)
		}
		t.Skipf("no GPU: %v", err)
	}
}

// TestCudaSaveResume: on -device cuda, -save then -resume continues exactly
// as an uninterrupted run; the checkpoint also resumes on the CPU and
// -load/-eval-only read it.
func TestCudaSaveResume(t *testing.T) {
	needGPU(t)
	dir := t.TempDir()
	// A constant entropy coefficient: the default decays it over -updates, so a
	// 3-update run is not the first half of a 6-update one.
	args := []string{"-device", "cuda", "-batch", "64", "-eval-every", "2", "-eval-batch", "10", "-final-episodes", "20", "-explain", "0",
		"-entropy-final", "-1"}
	full, part, ckpt := filepath.Join(dir, "full.json"), filepath.Join(dir, "resumed.json"), filepath.Join(dir, "c.safetensors")
	code, _, stderr := runCLI(append(args, "-updates", "6", "-report", full)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI(append(args, "-updates", "3", "-save", ckpt)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI(append(args, "-updates", "6", "-resume", ckpt, "-report", part)...)
	require.Equal(t, 0, code, stderr)
	a, b := readReport(t, full), readReport(t, part)
	require.Equal(t, a["param_sha256"], b["param_sha256"], "resumed on the GPU = uninterrupted")
	require.Equal(t, "cuda", b["backend"])

	// The GPU's checkpoint on the CPU: same parameters, then CPU training.
	cpu := filepath.Join(dir, "cpu.json")
	code, _, stderr = runCLI("-resume", ckpt, "-eval-only", "-final-episodes", "20", "-explain", "0", "-report", cpu)
	require.Equal(t, 0, code, stderr)
	evalOnGPU := filepath.Join(dir, "gpu-eval.json")
	code, _, stderr = runCLI("-device", "cuda", "-load", ckpt, "-eval-only", "-final-episodes", "20", "-explain", "0", "-report", evalOnGPU)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, readReport(t, cpu)["param_sha256"], readReport(t, evalOnGPU)["param_sha256"])
	require.Equal(t, 3.0, readReport(t, cpu)["updates"])
}

// TestCudaRefusesWhatTheDeviceCannotHold: a batch beyond the device's memory
// is one usage line naming the flag, before any buffer is allocated.
func TestCudaRefusesWhatTheDeviceCannotHold(t *testing.T) {
	needGPU(t)
	code, _, stderr := runCLI("-device", "cuda", "-batch", "16777216", "-steps", "64", "-updates", "1")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "lower -batch")
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
}

// TestCudaRunsCalc: -device cuda -task calc trains through the command (the
// report has every level, held-out and training solve rates, and
// explanations of the calculator), and evaluates a CPU-trained calc model to
// the CPU's solve rates and rewards, held out and on training instances.
func TestCudaRunsCalc(t *testing.T) {
	needGPU(t)
	dir := t.TempDir()
	calc := []string{"-task", "calc", "-levels", "a*b, a*b+c*d"}
	rep := filepath.Join(dir, "cuda.json")
	code, _, stderr := runCLI(append(calc, "-device", "cuda", "-updates", "4", "-batch", "64", "-eval-every", "2", "-eval-batch", "20",
		"-final-episodes", "40", "-explain", "1", "-report", rep)...)
	require.Equal(t, 0, code, stderr)
	r := readReport(t, rep)
	require.Equal(t, "cuda", r["backend"])
	require.Equal(t, []any{"a*b", "a*b+c*d"}, r["levels"])
	final := r["final"].(map[string]any)
	require.Len(t, final["solve_rate"], 2)
	require.Len(t, final["train_solve_rate"], 2)
	require.Len(t, r["evaluations"], 2)
	exs := r["explanations"].([]any)
	require.Len(t, exs, 2)
	require.Equal(t, "a*b+c*d", exs[1].(map[string]any)["level_name"])

	// A model trained on the CPU, evaluated on both devices.
	ckpt := filepath.Join(dir, "calc.safetensors")
	code, _, stderr = runCLI(append(calc, "-updates", "120", "-eval-every", "0", "-final-episodes", "0", "-explain", "0", "-save", ckpt)...)
	require.Equal(t, 0, code, stderr)
	eval := func(device string) map[string]any {
		out := filepath.Join(dir, device+"-eval.json")
		// Another -seed than the training run's: the evaluation draws follow the run's seed on both devices.
		code, _, stderr := runCLI(append(calc, "-device", device, "-seed", "5", "-load", ckpt, "-eval-only", "-final-episodes", "400", "-explain", "2",
			"-report", out)...)
		require.Equal(t, 0, code, stderr)
		r := readReport(t, out)
		exs = append(exs, r["explanations"].([]any)...)
		return r["final"].(map[string]any)
	}
	exs = nil
	onCPU, onGPU := eval("cpu"), eval("cuda")
	require.Len(t, exs, 8)
	for i := 0; i < 4; i++ { // the same explanation instances; programs equal but at a near-tie
		require.Equal(t, exs[i].(map[string]any)["ctx"], exs[4+i].(map[string]any)["ctx"], "explanation %d", i)
	}
	t.Logf("CPU %v\nGPU %v", onCPU, onGPU)
	for _, field := range []string{"solve_rate", "train_solve_rate", "mean_reward"} {
		want, got := onCPU[field].([]any), onGPU[field].([]any)
		require.Len(t, got, len(want), field)
		for lv := range want {
			// Equal but for an episode or two whose greedy choice is a near-tie.
			require.InDelta(t, want[lv].(float64), got[lv].(float64), 0.01, "%s of level %d", field, lv)
		}
	}
	require.Less(t, onCPU["solve_rate"].([]any)[1].(float64), 0.9, "the memory level is still being learned: the comparison has something to compare")
}

// TestCudaResumesOneLevel: a checkpoint of a one-level curriculum saved on
// the CPU resumes on -device cuda as on the CPU: the first resumed update's
// training reward (the same model, the same draws), then the greedy solve
// rates and the exhaustive counts but for a near-tie.
func TestCudaResumesOneLevel(t *testing.T) {
	needGPU(t)
	dir := t.TempDir()
	args := []string{"-task", "calc", "-levels", "abs(a-b)", "-batch", "8", "-eval-every", "0", "-final-episodes", "32", "-explain", "0"}
	ckpt := filepath.Join(dir, "one.safetensors")
	code, _, stderr := runCLI(append(args, "-updates", "20", "-save", ckpt)...)
	require.Equal(t, 0, code, stderr)
	resumed := func(device string) map[string]any {
		out := filepath.Join(dir, device+".json")
		code, _, stderr := runCLI(append(args, "-device", device, "-updates", "22", "-resume", ckpt, "-report", out)...)
		require.Equal(t, 0, code, stderr)
		return readReport(t, out)
	}
	onCPU, onGPU := resumed("cpu"), resumed("cuda")
	require.Equal(t, "cuda", onGPU["backend"])
	require.Equal(t, []any{"abs(a-b)"}, onGPU["levels"])
	require.Equal(t, 22.0, onGPU["updates"])
	want, got := onCPU["train_reward"].([]any), onGPU["train_reward"].([]any)
	t.Logf("training rewards CPU %v GPU %v\nfinal CPU %v\nGPU %v", want, got, onCPU["final"], onGPU["final"])
	require.Len(t, got, 22, "the training rewards are the whole run's: the checkpoint carries the first 20")
	require.Equal(t, want[:20], got[:20], "the checkpoint's history")
	require.Equal(t, want[20], got[20], "the first resumed update's rewards")
	wantSolve, gotSolve := onCPU["final"].(map[string]any)["solve_rate"].([]any), onGPU["final"].(map[string]any)["solve_rate"].([]any)
	require.Len(t, gotSolve, 1)
	require.InDelta(t, wantSolve[0].(float64), gotSolve[0].(float64), 2.0/32+1e-9, "greedy solve rate")
	for _, part := range []string{"held_out", "training"} {
		w := onCPU["exhaustive"].([]any)[0].(map[string]any)[part].(map[string]any)
		g := onGPU["exhaustive"].([]any)[0].(map[string]any)[part].(map[string]any)
		require.Equal(t, w["n"], g["n"], part)
		require.InDelta(t, w["solved"].(float64), g["solved"].(float64), 2, "%s instances solved", part)
	}
}

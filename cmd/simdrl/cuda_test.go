package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/gpu"
	"github.com/stretchr/testify/require"
)

// needGPU skips without a usable GPU (or gpu/emu's stand-in), unless
// SIMDRL_TEST_REQUIRE=cuda asks for failure instead.
func needGPU(t *testing.T) {
	if err := gpu.Available(); err != nil {
		if os.Getenv("SIMDRL_TEST_REQUIRE") == "cuda" {
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

// TestCudaSaysItRunsTheSeedTaskOnly: the CUDA kernels interpret the seed's
// environment; -task calc on them is one usage line, never a silent CPU run.
func TestCudaSaysItRunsTheSeedTaskOnly(t *testing.T) {
	needGPU(t)
	code, _, stderr := runCLI("-device", "cuda", "-task", "calc", "-updates", "1")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "seed task only")
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
}

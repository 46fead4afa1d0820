package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCudaTape: the tape task trains and evaluates on -device cuda, and its
// checkpoint evaluates on the CPU with the same parameters; a tape that
// reads its context is refused in one line, exit 2. (Without branching: its
// exhaustive evaluation, thousands of instances, is too slow for gpu/emu;
// the branching machine is gpu's TestGPUTapeShuntingYardModel.)
func TestCudaTape(t *testing.T) {
	needGPU(t)
	dir := t.TempDir()
	rep, ck := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.st")
	code, stdout, stderr := runCLI("-device", "cuda", "-task", "tape", "-task-spec", "partial_credit=0.3; longer=6", "-updates", "4",
		"-batch", "32", "-eval-every", "2", "-eval-batch", "8", "-final-episodes", "8", "-explain", "1", "-report", rep, "-save", ck)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "(tape ", "the explanation spells the tape")
	r := readReport(t, rep)
	require.Equal(t, "cuda", r["backend"])
	onCPU := filepath.Join(dir, "cpu.json")
	code, _, stderr = runCLI("-load", ck, "-eval-only", "-final-episodes", "8", "-explain", "0", "-report", onCPU)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, r["param_sha256"], readReport(t, onCPU)["param_sha256"])

	code, _, stderr = runCLI("-device", "cuda", "-task", "tape", "-task-spec", "head=context; longer=6,7", "-updates", "2")
	require.Equal(t, 2, code)
	require.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one line: %q", stderr)
	require.Contains(t, stderr, "train it on the CPU")
}

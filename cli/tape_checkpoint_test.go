package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTapeCheckpointsResumeAndLoad: a tape run (whose recipe sets
// stop_from) saves a checkpoint that -resume continues exactly as an
// uninterrupted run and that -load reads with its task and spec, no -task
// given. (Its config's stop_from was unknown to the reader: -resume
// refused the file and -load read its weights only, into the seed task's
// model.)
func TestTapeCheckpointsResumeAndLoad(t *testing.T) {
	dir := t.TempDir()
	args := []string{"-task", "tape", "-task-spec", "partial_credit=0.3; longer=6", "-batch", "16", "-eval-every", "2", "-eval-batch", "8",
		"-final-episodes", "8", "-explain", "0", "-threads", "1", "-entropy-final", "-1"}
	full, part, ckpt := filepath.Join(dir, "full.json"), filepath.Join(dir, "resumed.json"), filepath.Join(dir, "c.st")
	code, _, stderr := runCLI(append(args, "-updates", "4", "-report", full)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI(append(args, "-updates", "2", "-save", ckpt)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI("-resume", ckpt, "-updates", "4", "-report", part)
	require.Equal(t, 0, code, stderr)
	a, b := readReport(t, full), readReport(t, part)
	require.Equal(t, a["param_sha256"], b["param_sha256"], "resumed = uninterrupted")
	loaded := filepath.Join(dir, "loaded.json")
	code, _, stderr = runCLI("-load", ckpt, "-eval-only", "-final-episodes", "8", "-explain", "0", "-report", loaded)
	require.Equal(t, 0, code, stderr)
	cfg := readReport(t, loaded)["config"].(map[string]any)
	require.Equal(t, "tape", cfg["task"])
	require.Contains(t, cfg["task_spec"], "longer=6")
}

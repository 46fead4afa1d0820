package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
)

// format1Items is a checkpoint of simdrl 173cd17 (format 1, its item state
// as JSON in the metadata key "items"): -task expr -hidden 8 -batch 64
// -chunk 64 -replay 2 -updates 15, which remembered one program.
var format1Items = filepath.Join("testdata", "format1-items.safetensors")

// TestFormat1ItemStateStillResumes: the item state is tensors now (format
// 2), so that a task with millions of items writes a header that reads
// back; a format 1 file still resumes and loads, and resumes bit-identically
// through format 2: to update 17 directly, as through a format 2 checkpoint
// of update 16.
func TestFormat1ItemStateStillResumes(t *testing.T) {
	old, err := checkpoint.ReadFile(format1Items)
	require.NoError(t, err)
	require.Equal(t, "simdrl-checkpoint/1", old.Metadata["format"])
	require.Contains(t, old.Metadata["items"], `"replay_buffer":[{"level":`)

	dir := t.TempDir()
	quiet := []string{"-eval-every", "0", "-final-episodes", "0", "-explain", "0"}
	run := func(args ...string) {
		t.Helper()
		code, _, stderr := runCLI(append(args, quiet...)...)
		require.Equal(t, 0, code, stderr)
	}
	converted := filepath.Join(dir, "format2.st")
	run("-resume", format1Items, "-updates", "16", "-save", converted)
	f, err := checkpoint.ReadFile(converted)
	require.NoError(t, err)
	require.Equal(t, "simdrl-checkpoint/2", f.Metadata["format"])
	require.NotContains(t, f.Metadata, "items")
	for _, name := range []string{"items.item_fail", "items.replay_buffer.program"} {
		_, ok := f.Lookup(name)
		require.True(t, ok, name)
	}

	fromOld, fromNew := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	run("-resume", format1Items, "-updates", "17", "-report", fromOld)
	run("-resume", converted, "-updates", "17", "-report", fromNew)
	require.Equal(t, readReport(t, fromOld)["param_sha256"], readReport(t, fromNew)["param_sha256"])

	code, stdout, stderr := runCLI("-load", format1Items, "-eval-only", "-final-episodes", "8", "-explain", "0")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "Final greedy solve rates")
}

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/internal/tbdecode"
	"github.com/stretchr/testify/require"
)

// TestResumeRepairsTornOutputs: a run stopped while writing its -metrics
// line and its -tensorboard record (a full disk, a kill) leaves them cut
// off; resumed with the same outputs, the cut-off line and record are
// removed, with a note on stderr, and every line of -metrics is a JSON
// object and every events file decodes whole. A last line that is whole
// but lacks its newline (a file edited by hand) is kept and ended.
func TestResumeRepairsTornOutputs(t *testing.T) {
	dir := t.TempDir()
	metrics, tb, ck := filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "tb"), filepath.Join(dir, "c.st")
	args := append(small, "-metrics", metrics, "-tensorboard", tb)
	code, _, stderr := runCLI(append(args, "-updates", "4", "-save", ck)...)
	require.Equal(t, 0, code, stderr)

	// The lines and records of update 6, cut off.
	whole := readFile(t, metrics)
	appendTo(t, metrics, `{"update":6,"stage":"0","train_rew`)
	files, _, _ := readTensorBoard(t, tb)
	require.Len(t, files, 1)
	events, err := os.ReadFile(files[0])
	require.NoError(t, err)
	recs, err := tbdecode.Records(events)
	require.NoError(t, err)
	last := len(events) - 16 - len(recs[len(recs)-1])
	appendTo(t, files[0], string(events[last:last+15])) // a record's first 15 bytes: its header and 3 more

	code, _, stderr = runCLI(append(args, "-resume", ck, "-updates", "8")...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "simdrl: -metrics "+metrics+": removed its cut-off last line (34 bytes), left by a run stopped while writing it\n")
	require.Contains(t, stderr, "simdrl: -tensorboard: "+files[0]+": removed its cut-off last record (15 bytes), left by a run stopped while writing it\n")
	requireJSONLines(t, metrics, 4)
	require.True(t, strings.HasPrefix(readFile(t, metrics), whole))
	files, steps, _ := readTensorBoard(t, tb) // decodes every file whole
	require.Len(t, files, 2)
	require.Equal(t, []int64{2, 4, 6, 8}, steps)

	// A whole last line without its newline is ended, not cut.
	require.NoError(t, os.WriteFile(metrics, bytes.TrimSuffix([]byte(whole), []byte("\n")), 0o644))
	code, _, stderr = runCLI(append(small, "-metrics", metrics, "-updates", "2")...)
	require.Equal(t, 0, code, stderr)
	require.NotContains(t, stderr, "removed")
	requireJSONLines(t, metrics, 3)
}

func appendTo(t *testing.T, path, s string) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	_, err = f.WriteString(s)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// requireJSONLines requires path to be n lines, each a JSON object.
func requireJSONLines(t *testing.T, path string, n int) {
	raw := readFile(t, path)
	require.True(t, strings.HasSuffix(raw, "\n"), "%q ends in a newline", raw)
	lines := strings.Split(strings.TrimSuffix(raw, "\n"), "\n")
	require.Len(t, lines, n, raw)
	for i, l := range lines {
		var m map[string]any
		require.NoErrorf(t, json.Unmarshal([]byte(l), &m), "line %d: %q", i+1, l)
	}
}

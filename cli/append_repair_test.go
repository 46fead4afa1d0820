package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
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
	require.True(t, strings.HasSuffix(raw, "\n"), "…%q ends in a newline", raw[max(len(raw)-200, 0):])
	lines := strings.Split(strings.TrimSuffix(raw, "\n"), "\n")
	require.Lenf(t, lines, n, "…%q", raw[max(len(raw)-1000, 0):])
	for i, l := range lines {
		var m map[string]any
		require.NoErrorf(t, json.Unmarshal([]byte(l), &m), "line %d: %q", i+1, l)
	}
}

// TestFileTooLargeMidLine runs the binary under a file size limit (bash's
// ulimit -f: a write past it fails with EFBIG, as on a full disk, after
// writing what fits) with a -metrics file filled to one line under it: the
// line of update 4 is cut by the limit. The run exits 1 naming -metrics,
// the checkpoint of update 4 (which fits) is written, the cut-off part is
// taken back at once, and the resumed run appends whole lines to it. (The
// evaluation of update 4 is applied and saved: it is not redone, and its
// values are in the failed run's -report.)
func TestFileTooLargeMidLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary; covered by the full test run")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	metrics, ck := filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "c.st")
	line := `{"update":0,"stage":"0","filler":"` + strings.Repeat("x", 200) + `"}` + "\n"
	const limit = 1 << 20 // bytes: ulimit -f 1024 (KiB); the checkpoint is about 0.7 MiB
	// 500 bytes left: a metrics line (about 370 bytes) fits, two do not.
	n := (limit-500)/len(line) - 1
	rest := limit - 500 - n*len(line)
	filled := strings.Repeat(line, n) + `{"filler":"` + strings.Repeat("x", rest-14) + `"}` + "\n"
	require.Len(t, filled, limit-500)
	require.NoError(t, os.WriteFile(metrics, []byte(filled), 0o644))
	args := strings.Join(append(small, "-metrics", metrics, "-quiet"), " ")
	cmd := exec.Command("bash", "-c", "ulimit -f 1024 && exec "+bin+" "+args+" -updates 8 -save "+ck)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, string(out))
	require.Equal(t, 1, exit.ExitCode(), string(out))
	require.Contains(t, string(out), "simdrl: writing -metrics: write "+metrics+": file too large\n")
	require.Contains(t, string(out), "simdrl: checkpoint after update 4 in "+ck+"; continue with -resume "+ck+"\n")
	got := readFile(t, metrics)
	require.True(t, strings.HasPrefix(got, filled))
	requireJSONLines(t, metrics, strings.Count(filled, "\n")+1) // update 2's line; update 4's taken back

	out, err = exec.Command(bin, append(small, "-metrics", metrics, "-quiet", "-updates", "8", "-resume", ck)...).CombinedOutput()
	require.NoError(t, err, string(out))
	require.NotContains(t, string(out), "removed")
	requireJSONLines(t, metrics, strings.Count(filled, "\n")+3) // 2, then 6 and 8 (4's is in the report)
}

// TestTensorBoardFileTooLarge: the same for -tensorboard: under a file size
// limit of 4 KiB, the events file's record that crosses it is cut; the run
// exits 1 naming -tensorboard, and the file, the cut-off part taken back at
// once, decodes whole.
func TestTensorBoardFileTooLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary; covered by the full test run")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	tb := filepath.Join(dir, "tb")
	args := strings.Join(append(small, "-eval-every", "1", "-updates", "60", "-quiet", "-tensorboard", tb), " ")
	out, err := exec.Command("bash", "-c", "ulimit -f 4 && exec "+bin+" "+args).CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, string(out))
	require.Equal(t, 1, exit.ExitCode(), string(out))
	require.Regexp(t, `^simdrl: writing -tensorboard: write .*/tb/events\.out\.tfevents\.[^ ]+: file too large\n$`, string(out))
	files, steps, _ := readTensorBoard(t, tb) // decodes whole
	require.Len(t, files, 1)
	require.NotEmpty(t, steps)
	fi, err := os.Stat(files[0])
	require.NoError(t, err)
	require.Less(t, fi.Size(), int64(4096), "the cut-off record is gone")
}

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// small is a quick run of the default recipe's machinery.
var small = []string{"-batch", "32", "-chunk", "16", "-eval-every", "2", "-eval-batch", "10", "-final-episodes", "20", "-explain", "1"}

func readReport(t *testing.T, path string) map[string]any {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var rep map[string]any
	require.NoError(t, json.Unmarshal(raw, &rep))
	return rep
}

func TestSaveLoadEvalOnlyMetricsPlot(t *testing.T) {
	dir := t.TempDir()
	ck, rep1, metrics, png := filepath.Join(dir, "m.safetensors"), filepath.Join(dir, "r1.json"), filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "c.png")
	code, _, stderr := runCLI(append(small, "-updates", "6", "-save", ck, "-save-every", "2", "-report", rep1, "-metrics", metrics, "-plot", png)...)
	require.Equal(t, 0, code, stderr)

	lines := strings.Split(strings.TrimSpace(readFile(t, metrics)), "\n")
	require.Len(t, lines, 3)
	for _, l := range lines {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m))
		for _, k := range []string{"update", "stage", "train_reward", "loss", "grad_norm", "eval_mean_reward", "eval_solve_rate", "updates_per_second"} {
			require.Containsf(t, m, k, "metrics line lacks %s", k)
		}
	}
	pngBytes, err := os.ReadFile(png)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(pngBytes, []byte("\x89PNG\r\n\x1a\n")))

	// -eval-only -load evaluates the saved weights: same greedy results, same hash.
	rep2 := filepath.Join(dir, "r2.json")
	code, out, stderr := runCLI(append(small, "-load", ck, "-eval-only", "-report", rep2)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, "Final greedy solve rates")
	a, b := readReport(t, rep1), readReport(t, rep2)
	require.Equal(t, a["param_sha256"], b["param_sha256"])
	require.Equal(t, a["final"], b["final"])

	// A checkpoint of another size is refused with a clear line that names
	// the flags it was trained with.
	code, _, stderr = runCLI("-load", ck, "-hidden", "32", "-eval-only")
	require.Equal(t, 2, code)
	require.Contains(t, stderr, "it was trained with -hidden 96")
	require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	for _, args := range [][]string{{"-resume", ck, "-load", ck}, {"-eval-only"}, {"-save-every", "3"},
		{"-load", filepath.Join(dir, "missing.safetensors")}, {"-resume", png}, {"-plot", filepath.Join(dir, "x.jpg"), "-updates", "2", "-eval-every", "1"}} {
		code, _, stderr = runCLI(args...)
		require.NotEqualf(t, 0, code, "%v", args)
		require.Truef(t, strings.HasPrefix(stderr, "simdrl: "), "%v: %q", args, stderr)
		require.NotContains(t, stderr, "goroutine")
	}
}

func readFile(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	require.NoError(t, err)
	return string(b)
}

// TestInterruptSavesAndResumes runs the command, holds it after its third
// update until SIGINT (then, in a second run, SIGTERM) has been handled, and
// checks the exit code, the checkpoint of update 3, and that resuming it
// finishes with the parameters of an uninterrupted run. (It signalled after
// three lines of output, and a loaded machine finished the 40 updates
// before the signal came.)
func TestInterruptSavesAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process several times; covered by the full test run")
	}
	dir := t.TempDir()
	args := append([]string{"-updates", "40", "-stop-at", "0", "-eval-every", "1", "-threads", "2"}, small[:len(small)-4]...)
	args = append(args, "-final-episodes", "0", "-explain", "0")

	fullRep := filepath.Join(dir, "full.json")
	code, _, stderr := runCLI(append(args, "-report", fullRep)...)
	require.Equal(t, 0, code, stderr)

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ck := filepath.Join(dir, sig.String()+".safetensors")
		c := startChild(t, "hold=3", false, append(args, "-save", ck)...)
		c.await(t, "child: held at update 3")
		c.signal(t, sig, false)
		code, stderr := c.exit(t)
		require.Equal(t, 128+int(sig), code, stderr)
		require.Contains(t, stderr, "checkpoint after update 3 in "+ck+"; continue with -resume "+ck)

		resRep := filepath.Join(dir, sig.String()+".json")
		code, out, stderr := runCLI("-resume", ck, "-threads", "1", "-report", resRep)
		require.Equal(t, 0, code, stderr)
		require.Contains(t, out, "resuming after update 3")
		require.Equal(t, readReport(t, fullRep)["param_sha256"], readReport(t, resRep)["param_sha256"], "%v: resumed run differs", sig)
	}
}

// TestSecondSignalQuitsAtOnce: while the first Ctrl-C waits for an update
// that does not end (the child stalls in it), a second one, once the
// first's burst is over, exits at once with its own code: 130, or 143 for
// a SIGTERM after the Ctrl-C.
func TestSecondSignalQuitsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process; covered by the full test run")
	}
	for _, second := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		c := startChild(t, "stall=1", false, append([]string{"-updates", "50", "-stop-at", "0"}, small...)...)
		c.await(t, "child: stalled at update 1")
		c.signal(t, syscall.SIGINT, false)
		c.await(t, "again to quit at once")
		require.NoError(t, c.stdin.Close()) // the burst is over
		c.await(t, "child: settled")
		c.signal(t, second, false)
		code, stderr := c.exit(t)
		require.Equal(t, 128+int(second), code, stderr)
		require.Contains(t, stderr, second.String()+" again: quitting now")
	}
}

// TestSignalToTheProcessAndItsGroup: a supervisor that signals the run and
// then its process group (coreutils timeout does) delivers one request
// twice; the run still stops at its next update, saves it and exits with
// the signal's code. The child's burst never ends here, so the copy is
// dropped however late it comes (TestOneSignalDeliveredTwiceIsOneRequest
// covers the burst's end).
func TestSignalToTheProcessAndItsGroup(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process; covered by the full test run")
	}
	dir := t.TempDir()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ck := filepath.Join(dir, sig.String()+".st")
		c := startChild(t, "hold=2", true, append([]string{"-updates", "50", "-stop-at", "0", "-save", ck}, small...)...)
		c.await(t, "child: held at update 2")
		c.signal(t, sig, false)
		c.signal(t, sig, true)
		code, stderr := c.exit(t)
		require.Equal(t, 128+int(sig), code, stderr)
		require.NotContains(t, stderr, "quitting now")
		require.Contains(t, stderr, "checkpoint after update 2 in "+ck)
		code, _, stderr = runCLI("-resume", ck, "-eval-only", "-final-episodes", "10", "-explain", "0")
		require.Equal(t, 0, code, stderr)
	}
}

// buildBinary is the command (cmd/simdrl, a main that calls Main), for the
// tests that need the real binary (a terminal, a file size limit). It is
// built once per test process, into a directory TestMain removes: each
// build links the whole command again, seconds of CPU (dir is unused).
func buildBinary(t *testing.T, _ string) string {
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "simdrl-cli-test-")
		if built.err != nil {
			return
		}
		build := exec.Command("go", "build", "-o", filepath.Join(built.dir, "simdrl"), "../cmd/simdrl")
		build.Stderr = os.Stderr
		built.err = build.Run()
	})
	require.NoError(t, built.err)
	return filepath.Join(built.dir, "simdrl")
}

// built is buildBinary's one build.
var built struct {
	once sync.Once
	dir  string
	err  error
}

// removeBuilt removes buildBinary's directory, if it made one.
func removeBuilt() {
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
}

package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

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

// TestInterruptSavesAndResumes runs the real binary, sends SIGINT (then, in
// a second run, SIGTERM) after a few updates, and checks the exit code, the
// checkpoint, and that resuming it finishes with the parameters of an
// uninterrupted run.
func TestInterruptSavesAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary several times; covered by the full test run")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	args := append([]string{"-updates", "400", "-stop-at", "0", "-eval-every", "1", "-threads", "2"}, small[:len(small)-4]...)
	args = append(args, "-final-episodes", "0", "-explain", "0")

	fullRep := filepath.Join(dir, "full.json")
	out, err := exec.Command(bin, append(args, "-updates", "40", "-report", fullRep)...).CombinedOutput()
	require.NoError(t, err, string(out))

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		ck := filepath.Join(dir, sig.String()+".safetensors")
		cmd, sc, stderr := start(t, bin, append(args, "-updates", "40", "-save", ck)...)
		seen := 0
		for sc.Scan() && seen < 3 {
			if strings.HasPrefix(sc.Text(), "ep=") {
				seen++
			}
		}
		require.NoError(t, cmd.Process.Signal(sig))
		go func() {
			for sc.Scan() {
			}
		}()
		err = cmd.Wait() // a run that never stops fails at the test binary's -timeout
		var exitErr *exec.ExitError
		require.ErrorAs(t, err, &exitErr, stderr.String())
		require.Equal(t, 128+int(sig), exitErr.ExitCode(), stderr.String())
		require.Contains(t, stderr.String(), "checkpoint after update")
		require.Contains(t, stderr.String(), "-resume "+ck)

		resRep := filepath.Join(dir, sig.String()+".json")
		require.FileExists(t, ck)
		out, err := exec.Command(bin, "-resume", ck, "-threads", "1", "-report", resRep).CombinedOutput()
		require.NoError(t, err, string(out))
		require.Contains(t, string(out), "resuming after update")
		require.Equal(t, readReport(t, fullRep)["param_sha256"], readReport(t, resRep)["param_sha256"], "%v: resumed run differs", sig)
	}
}

// TestSecondSignalQuitsAtOnce: while the first Ctrl-C waits for a slow chunk
// to finish, a second one exits immediately with 130.
func TestSecondSignalQuitsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary; covered by the full test run")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	// An interrupt stops an update between chunks, never inside one: an
	// update of one chunk of 1024 episodes at hidden 1024 takes about 0.7 s
	// here (seconds with the generic kernels). The second signal goes out
	// as soon as the first one's message is read, so both land inside one
	// chunk unless the first landed at a boundary (the loop's check before
	// an update, on a loaded machine): then the run ends by itself before
	// the second arrives, and the attempt is repeated, later in the update.
	for attempt := 1; attempt <= 5; attempt++ {
		quit, stderr := signalTwice(t, bin, time.Duration(attempt)*150*time.Millisecond)
		if quit {
			return
		}
		t.Logf("attempt %d: the first signal ended the run at a boundary before the second came:\n%s", attempt, stderr)
	}
	t.Fatal("a second signal never quit at once")
}

// signalTwice runs a long-chunked run, sends SIGINT wait after its first
// evaluation line and again once the first one's message is on stderr, and
// reports whether the run quit on the second (exit 130 within 2 s, saying
// so); a run that stopped on the first signal alone reports false.
func signalTwice(t *testing.T, bin string, wait time.Duration) (bool, string) {
	cmd := exec.Command(bin, "-hidden", "1024", "-batch", "1024", "-chunk", "1024", "-updates", "50", "-eval-every", "1",
		"-eval-batch", "10", "-stop-at", "0", "-threads", "1")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	sc := bufio.NewScanner(stdout)
	for sc.Scan() && !strings.HasPrefix(sc.Text(), "ep=") {
	}
	go func() {
		for sc.Scan() {
		}
	}()
	time.Sleep(wait) // past the loop's check, into the next update
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	var seen strings.Builder
	for line := range lines {
		seen.WriteString(line + "\n")
		if strings.Contains(line, "again to quit at once") {
			break
		}
	}
	_ = cmd.Process.Signal(syscall.SIGINT) // the run may have ended already
	begun := time.Now()
	for line := range lines {
		seen.WriteString(line + "\n")
	}
	err = cmd.Wait()
	var exitErr *exec.ExitError
	require.ErrorAs(t, err, &exitErr, seen.String())
	require.Equal(t, 130, exitErr.ExitCode(), seen.String())
	if !strings.Contains(seen.String(), "again: quitting now") {
		return false, seen.String()
	}
	require.Less(t, time.Since(begun), 2*time.Second)
	return true, seen.String()
}

// buildBinary builds the command (cmd/simdrl, a main that calls Main) into
// dir (signal tests need a process of their own).
func buildBinary(t *testing.T, dir string) string {
	bin := filepath.Join(dir, "simdrl")
	build := exec.Command("go", "build", "-o", bin, "../cmd/simdrl")
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	return bin
}

// start runs the binary with args, its stdout read line by line through the
// returned scanner and its stderr collected.
func start(t *testing.T, bin string, args ...string) (*exec.Cmd, *bufio.Scanner, *bytes.Buffer) {
	cmd := exec.Command(bin, args...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	return cmd, bufio.NewScanner(stdout), stderr
}

package customtask_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// run is a short run of the maxdigit task through its own command
// (cmd/maxdigit, cli.Main), evaluated every update.
var run = []string{"-task", "maxdigit", "-batch", "32", "-chunk", "16", "-eval-every", "1", "-eval-batch", "10", "-stop-at", "0", "-threads", "1"}

// buildCommand builds cmd/name into dir: signals need a process of their own.
func buildCommand(t *testing.T, dir, name string) string {
	bin := filepath.Join(dir, name)
	build := exec.Command("go", "build", "-o", bin, "./cmd/"+name)
	build.Stderr = os.Stderr
	require.NoError(t, build.Run())
	return bin
}

func report(t *testing.T, path string) map[string]any {
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var rep map[string]any
	require.NoError(t, json.Unmarshal(raw, &rep))
	return rep
}

// TestCommandLineTrainsTheTask: a main that imports the task and calls
// cli.Main gets simdrl's command line for it: -h lists it, -task maxdigit
// trains it, -save, -report and -plot write their files, -resume continues
// the saved run, and a bad flag is one line with exit 2.
func TestCommandLineTrainsTheTask(t *testing.T) {
	dir := t.TempDir()
	bin := buildCommand(t, dir, "maxdigit")

	help, err := exec.Command(bin, "-h").CombinedOutput()
	require.NoError(t, err, string(help))
	require.Regexp(t, `--task string +what to learn: .*maxdigit`, string(help), "-task's help lists the registered tasks")

	ck, rep, png := filepath.Join(dir, "run.st"), filepath.Join(dir, "run.json"), filepath.Join(dir, "run.png")
	out, err := exec.Command(bin, append(run, "-updates", "4", "-save", ck, "-report", rep, "-plot", png)...).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, string(out), "Level 0 (max(a,b)) samples")
	first := report(t, rep)
	require.Equal(t, "maxdigit", first["config"].(map[string]any)["task"])
	require.EqualValues(t, 4, first["updates"])
	require.FileExists(t, ck)
	plot, err := os.ReadFile(png)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(plot, []byte("\x89PNG\r\n\x1a\n")), "-plot writes a PNG")

	resumed := filepath.Join(dir, "resumed.json")
	out, err = exec.Command(bin, "-resume", ck, "-updates", "6", "-report", resumed).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, string(out), "resuming after update 4")
	second := report(t, resumed)
	require.Equal(t, "maxdigit", second["config"].(map[string]any)["task"])
	require.EqualValues(t, 6, second["updates"])
	evals := second["evaluations"].([]any)
	require.Len(t, evals, 6, "the report is the whole run's: updates 1 to 4 from the checkpoint, then the resumed run's 5 and 6")
	require.EqualValues(t, 5, evals[4].(map[string]any)["update"])
	require.Len(t, second["train_reward"], 6)

	cmd := exec.Command(bin, "-task", "maxdigit", "-batch", "0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var exitErr *exec.ExitError
	require.ErrorAs(t, cmd.Run(), &exitErr)
	require.Equal(t, 2, exitErr.ExitCode())
	require.Regexp(t, `^simdrl: -batch .+\n$`, stderr.String())

	// This program registers two tasks (guess and maxdigit), neither the
	// recipe's seed: -h names no default it does not have, and a run
	// without -task says to name one.
	require.NotContains(t, string(help), `(default "seed")`)
	cmd = exec.Command(bin, "-updates", "1")
	stderr.Reset()
	cmd.Stderr = &stderr
	require.ErrorAs(t, cmd.Run(), &exitErr)
	require.Equal(t, 2, exitErr.ExitCode())
	require.Equal(t, "simdrl: -task: this command has several tasks and no default: name one (guess, lock, maxdigit, reverse)\n", stderr.String())
}

// TestInterruptSavesAndResumes: SIGINT during training stops the run at
// the next chunk with exit 130 after saving the last completed update and
// writing the report, and resuming that checkpoint ends with the parameters
// of the same run left uninterrupted.
func TestInterruptSavesAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command three times")
	}
	requireInterruptResumes(t, "maxdigit", run)
}

// requireInterruptResumes interrupts a long run of args by the command
// cmd/name with SIGINT, and requires what TestInterruptSavesAndResumes says.
func requireInterruptResumes(t *testing.T, name string, args []string) {
	dir := t.TempDir()
	bin := buildCommand(t, dir, name)
	// More updates than the stdout pipe holds lines: once the test stops
	// reading, the run blocks on its output, so it cannot end before the
	// signal comes.
	long := append(append([]string(nil), args...), "-updates", "1500", "-final-episodes", "0", "-explain", "0")

	full := filepath.Join(dir, "full.json")
	out, err := exec.Command(bin, append(long, "-report", full)...).CombinedOutput()
	require.NoError(t, err, string(out))

	ck, rep := filepath.Join(dir, "stopped.st"), filepath.Join(dir, "stopped.json")
	cmd := exec.Command(bin, append(long, "-save", ck, "-report", rep)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(stdout)
	for seen := 0; seen < 3 && sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "update ") {
			seen++
		}
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	for sc.Scan() {
	}
	var exitErr *exec.ExitError
	require.ErrorAs(t, cmd.Wait(), &exitErr, stderr.String())
	require.Equal(t, 130, exitErr.ExitCode(), stderr.String())
	m := regexp.MustCompile(`checkpoint after update (\d+) in .*; continue with -resume `).FindStringSubmatch(stderr.String())
	require.NotNil(t, m, stderr.String())
	saved, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	require.Less(t, saved, 1500)
	require.EqualValues(t, saved, report(t, rep)["updates"], "the report is written at the interruption")

	resumed := filepath.Join(dir, "resumed.json")
	out, err = exec.Command(bin, "-resume", ck, "-report", resumed).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, string(out), "resuming after update "+m[1])
	require.Equal(t, report(t, full)["param_sha256"], report(t, resumed)["param_sha256"], "the resumed run differs from the uninterrupted one")
}

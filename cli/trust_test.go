package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	flag "github.com/spf13/pflag"
	"github.com/stretchr/testify/require"
)

// quick is a run of a few updates with no evaluation.
var quick = []string{"-batch", "16", "-chunk", "16", "-eval-every", "0", "-final-episodes", "0", "-explain", "0"}

// saveRun trains a few updates into a checkpoint at dir/name.
func saveRun(t *testing.T, dir, name string, args ...string) string {
	ck := filepath.Join(dir, name)
	code, _, stderr := runCLI(append(append(append([]string{}, quick...), "-updates", "3", "-save", ck), args...)...)
	require.Equal(t, 0, code, stderr)
	return ck
}

// requireUsage checks a one-line exit 2 that contains want.
func requireUsage(t *testing.T, want string, args ...string) {
	t.Helper()
	code, stdout, stderr := runCLI(args...)
	require.Equalf(t, 2, code, "%v: %s", args, stderr)
	require.Containsf(t, stderr, want, "%v", args)
	require.Equalf(t, 1, strings.Count(stderr, "\n"), "%v: %q", args, stderr)
	require.NotContains(t, stdout, "Training", "%v: refused before any work", args)
}

// TestOutputsNeverNameAnInput: -resume run.st -report run.st once replaced
// the checkpoint with the JSON report, and -load run.st -metrics run.st
// appended JSON to it.
func TestOutputsNeverNameAnInput(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "run.st")
	before, err := os.ReadFile(ck)
	require.NoError(t, err)
	sym, hard := filepath.Join(dir, "sym.st"), filepath.Join(dir, "hard.st")
	require.NoError(t, os.Symlink(ck, sym))
	require.NoError(t, os.Link(ck, hard))
	for _, args := range [][]string{
		{"-resume", ck, "-report", ck},
		{"-resume", sym, "-updates", "5", "-metrics", hard},
		{"-load", ck, "-metrics", ck},
		{"-load", ck, "-eval-only", "-report", hard},
		{"-load", ck, "-plot", ck},
	} {
		requireUsage(t, "names the file that -", append(args, quick...)...)
	}
	after, err := os.ReadFile(ck)
	require.NoError(t, err)
	require.Equal(t, before, after, "the checkpoint must be untouched")
	// -save next to the input is fine.
	code, _, stderr := runCLI(append([]string{"-resume", ck, "-updates", "4", "-save", filepath.Join(dir, "next.st")}, quick...)...)
	require.Equal(t, 0, code, stderr)
}

// TestReadOnlyOutputIsRefused: an existing output its owner made read-only
// was replaced (the directory allowed it).
func TestReadOnlyOutputIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "keep.json")
	require.NoError(t, os.WriteFile(p, []byte("mine\n"), 0o444))
	requireUsage(t, "is read-only", append([]string{"-report", p, "-updates", "1"}, quick...)...)
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "mine\n", string(got))
}

// TestContradictionsAreRefusedAtStart: flags that the run would silently
// ignore, or that leave it nothing to do.
func TestContradictionsAreRefusedAtStart(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "run.st")
	requireUsage(t, "-eval-only trains nothing to save", "-load", ck, "-eval-only", "-save", filepath.Join(dir, "x.st"))
	requireUsage(t, "-eval-only makes no periodic evaluations for -metrics", "-load", ck, "-eval-only", "-metrics", filepath.Join(dir, "m.jsonl"))
	requireUsage(t, "-eval-only trains nothing to save", "-resume", ck, "-eval-only", "-save", filepath.Join(dir, "x.st"), "-save-every", "2")
	requireUsage(t, "-updates 2 is not above the 3 updates the checkpoint has done", "-resume", ck, "-updates", "2")
	requireUsage(t, "-updates 3 is not above the 3 updates", "-resume", ck, "-updates", "3")
	// -plot of a run whose -eval-every exceeds its updates: refused before
	// training, not after.
	requireUsage(t, "-plot: this run makes no evaluations to draw", append([]string{"-updates", "5", "-eval-every", "10", "-plot", filepath.Join(dir, "c.png")}, quick[:4]...)...)
	requireUsage(t, "-plot: this run makes no evaluations to draw", "-resume", ck, "-updates", "5", "-eval-every", "6", "-plot", filepath.Join(dir, "c.png"))
}

// TestValuesThatLookLikeFlags: -report -out.json wrote --out.json.
func TestValuesThatLookLikeFlags(t *testing.T) {
	cl, err := parseCommandLine([]string{"-report", "-out.json", "-save", "-x.st", "--metrics", "-m", "-seed", "3"}, nil)
	require.NoError(t, err)
	require.Equal(t, "-out.json", cl.fl.report)
	require.Equal(t, "-x.st", cl.fl.save)
	require.Equal(t, "-m", cl.fl.metrics)
	cfg, err := cl.fresh(nil)
	require.NoError(t, err)
	require.EqualValues(t, 3, cfg.Seed)
	// A boolean flag takes no value: the next argument is a flag again.
	cl, err = parseCommandLine([]string{"-quiet", "-report", "r.json"}, nil)
	require.NoError(t, err)
	require.True(t, cl.fl.quiet)
	require.Equal(t, "r.json", cl.fl.report)
}

// TestHelpShowsEveryRange: docs/cli.md says -h shows each numeric flag's range.
func TestHelpShowsEveryRange(t *testing.T) {
	fs, _ := newFlagSet()
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		switch f.Value.Type() {
		case "int", "float64", "uint64":
			n++
			require.Regexpf(t, `[\[(][^\]]*, [^\]]*\]|≥ 0|≥ 1|≤ 1000`, f.Usage, "-%s shows no range: %q", f.Name, f.Usage)
		}
	})
	require.Greater(t, n, 15)
}

// TestResumeMessagesNameTheCheckpointsTask: flags were checked against the
// seed task before the checkpoint was read.
func TestResumeMessagesNameTheCheckpointsTask(t *testing.T) {
	dir := t.TempDir()
	calcCk := saveRun(t, dir, "calc.st", "-task", "calc", "-levels", "a*b, a*b+c*d")
	seedCk := saveRun(t, dir, "seed.st")
	requireUsage(t, "-stages has an unknown level 5 (the calc task has levels 0..1)", "-resume", calcCk, "-stages", "5", "-updates", "4")
	requireUsage(t, "-task calc: the checkpoint was trained on the seed task", "-resume", seedCk, "-task", "calc", "-updates", "4")

	// New levels (as many) on resume: accepted, and the rollout follows the
	// new levels' longest budget instead of keeping the old -steps.
	rep := filepath.Join(dir, "r.json")
	code, _, stderr := runCLI("-resume", calcCk, "-levels", "a*b, a*b+c*d-e*f", "-updates", "4", "-report", rep)
	require.Equal(t, 0, code, stderr)
	cfg := readReport(t, rep)["config"].(map[string]any)
	require.Equal(t, "levels=a*b, a*b+c*d-e*f; partial_credit=0.3", cfg["task_spec"])
	require.Greater(t, cfg["steps"].(float64), 9.0, "the old levels' 9 steps cannot hold a*b+c*d-e*f")
}

// TestClosedStdoutStillSaves: `simdrl … -save sp.st | head -1` exited 141
// with no message and no checkpoint.
func TestClosedStdoutStillSaves(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	ck := filepath.Join(dir, "sp.st")
	cmd := exec.Command(bin, append([]string{"-updates", "30", "-save", ck, "-save-every", "10", "-eval-every", "1"}, small[:2]...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	first := make([]byte, 1)
	_, err = stdout.Read(first) // as head -1 would: read, then close
	require.NoError(t, err)
	require.NoError(t, stdout.Close())
	require.NoError(t, cmd.Wait(), stderr.String())
	require.FileExists(t, ck)
	code, _, e := runCLI("-resume", ck, "-eval-only", "-final-episodes", "10", "-explain", "0")
	require.Equal(t, 0, code, e)
}

// TestInterruptBeforeTraining: a -metrics FIFO with no reader blocked the
// start, deaf to SIGINT; so did a -resume or -load FIFO with no writer (the
// first signal was only noted, and the read went on waiting). The signal
// goes once the command handles signals: before the open or during it, it
// must exit with the signal's code (a command deaf to it never ends, and
// fails at the test binary's -timeout).
func TestInterruptBeforeTraining(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process")
	}
	fifo := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGINT, syscall.SIGTERM} {
		args := [][]string{{"-metrics", fifo, "-updates", "5"}, {"-resume", fifo}, {"-load", fifo, "-eval-only"}, {"-metrics", fifo, "-updates", "5"}}[i]
		c := startChild(t, "", false, args...)
		c.await(t, "child: watching")
		c.signal(t, sig, false)
		code, stderr := c.exit(t)
		require.Equal(t, 128+int(sig), code, "%v: %s", args, stderr)
		require.Contains(t, stderr, "stopping before the run began", args)
	}
}

// withLevels writes a copy of checkpoint ck whose config names levels (as
// its calc spec).
func withLevels(t *testing.T, ck, levels string) string {
	f, err := checkpoint.ReadFile(ck)
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, json.Unmarshal([]byte(f.Metadata["config"]), &cfg))
	cfg["task_spec"] = "levels=" + levels
	raw, err := json.Marshal(cfg)
	require.NoError(t, err)
	f.Metadata["config"] = string(raw)
	p := ck + ".crafted"
	require.NoError(t, checkpoint.WriteFile(p, f))
	return p
}

// TestCraftedLevelsAreBounded: a 1.7 MB checkpoint whose levels were h*h
// 250,000 times made -resume search for days, deaf to signals; -load spent
// the same searching to build a hint. Now the count and the size are checked
// before any search, from a checkpoint as from -levels.
func TestCraftedLevelsAreBounded(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "calc.st", "-task", "calc", "-levels", "a*b, a*b+c*d")
	huge := withLevels(t, ck, strings.TrimSuffix(strings.Repeat("h*h,", 250_000), ","))
	requireUsage(t, "checkpoint config: task_spec: levels:", "-resume", huge)
	requireUsage(t, "bytes", "-resume", huge)
	requireUsage(t, "checkpoint config: task_spec: levels:", "-load", huge, "-eval-only")
	many := withLevels(t, ck, strings.TrimSuffix(strings.Repeat("a*b+c,", 40), ","))
	requireUsage(t, "40 levels; at most 32", "-resume", many)
	// The same expression spelled two ways is one level, from a checkpoint too.
	dup := withLevels(t, ck, "a*b, (b*a)")
	requireUsage(t, "the same expression as level 0", "-resume", dup)
	requireUsage(t, "the same expression as level 0", "-task", "calc", "-levels", "a*b+c*d, (a*b)+(c*d)")
}

// TestInterruptDuringTheLevelSearch: Ctrl-C while a slow curriculum was
// searched went on searching and exited later, not 130; the same for a
// checkpoint's levels under -resume. The signal goes as the search begins,
// and the child holds the run at its start, so that a search that ends
// first cannot carry the run into training: either way the exit is 130,
// before the run began.
func TestInterruptDuringTheLevelSearch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process")
	}
	dir := t.TempDir()
	slow := "g*g+a, g*g+b, g*g+c, h*h+a, h*h+b"
	ck := saveRun(t, dir, "calc.st", "-task", "calc", "-levels", "a*b, a*b+c*d, a*b+c, (a*b+c)-d, a*b+c*d-e*f")
	crafted := withLevels(t, ck, slow)
	for _, args := range [][]string{{"-task", "calc", "-levels", slow}, {"-resume", crafted}, {"-load", crafted, "-eval-only"}} {
		c := startChild(t, "at=running", false, args...)
		c.await(t, "child: searching")
		c.signal(t, syscall.SIGINT, false)
		code, stderr := c.exit(t)
		require.Equalf(t, 130, code, "%v: %s", args, stderr)
		require.Contains(t, stderr, "interrupt: stopping before the run began", args)
	}
}

package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestContextFlag: -context read sets the config's context, bag (the
// default) leaves it out of the config, anything else is one line, exit 2.
func TestContextFlag(t *testing.T) {
	var buf bytes.Buffer
	c, err := parseFlags([]string{"-task", "calc", "-context", "read"}, &buf)
	require.NoError(t, err)
	require.True(t, c.Context == trainer.ContextRead)
	c, err = parseFlags([]string{"-context", "bag"}, &buf)
	require.NoError(t, err)
	require.Empty(t, c.Context)
	requireUsage(t, `-context must be bag or read, got "sideways"`, "-context", "sideways", "-updates", "1")
	code, out, _ := runCLI("-h")
	require.Equal(t, 0, code)
	require.Regexp(t, `--context string +bag: .* read: `, out)
}

// TestReadRunResumes: a reading run's report and checkpoint say
// "context": "read", and -resume continues it bit for bit.
func TestReadRunResumes(t *testing.T) {
	dir := t.TempDir()
	args := append(append([]string{}, quick...), "-task", "calc", "-levels", "a*b, a*b+c*d", "-context", "read")
	full, part, rest := filepath.Join(dir, "full.json"), filepath.Join(dir, "p.st"), filepath.Join(dir, "rest.json")
	code, _, stderr := runCLI(append(args, "-updates", "4", "-report", full)...)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "read", readReport(t, full)["config"].(map[string]any)["context"])
	code, _, stderr = runCLI(append(args, "-updates", "2", "-save", part)...)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI("-resume", part, "-updates", "4", "-report", rest, "-final-episodes", "0", "-explain", "0")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, readReport(t, full)["param_sha256"], readReport(t, rest)["param_sha256"])
	require.Equal(t, "read", readReport(t, rest)["config"].(map[string]any)["context"])
}

// TestCudaReads: -device cuda -context read trains a reading model on the
// GPU (or its emulator): the report says "context": "read" and backend
// cuda, and its checkpoint evaluates on the CPU to the same parameters.
func TestCudaReads(t *testing.T) {
	needGPU(t)
	dir := t.TempDir()
	rep, ck := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.st")
	code, _, stderr := runCLI("-device", "cuda", "-context", "read", "-task", "calc", "-levels", "a*b, a*b+c", "-updates", "20",
		"-batch", "64", "-eval-every", "10", "-eval-batch", "20", "-final-episodes", "20", "-explain", "0", "-report", rep, "-save", ck)
	require.Equal(t, 0, code, stderr)
	r := readReport(t, rep)
	require.Equal(t, "cuda", r["backend"])
	require.Equal(t, "read", r["config"].(map[string]any)["context"])
	onCPU := filepath.Join(dir, "cpu.json")
	code, _, stderr = runCLI("-load", ck, "-eval-only", "-final-episodes", "20", "-explain", "0", "-report", onCPU)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, r["param_sha256"], readReport(t, onCPU)["param_sha256"])
	require.Equal(t, "read", readReport(t, onCPU)["config"].(map[string]any)["context"])
}

// TestLoadKeepsOrChangesTheContext: -load of a reading checkpoint reads (the
// model is used as it was trained) unless -context says otherwise; a bag
// checkpoint loads into a reading run with -context read (the tensors are
// the same).
func TestLoadKeepsOrChangesTheContext(t *testing.T) {
	dir := t.TempDir()
	base := append(append([]string{}, quick...), "-task", "calc", "-levels", "a*b, a*b+c*d")
	read := saveRun(t, dir, "read.st", append(base, "-context", "read")...)
	bag := saveRun(t, dir, "bag.st", base...)
	context := func(args ...string) any {
		rep := filepath.Join(dir, "r.json")
		code, _, stderr := runCLI(append(args, "-eval-only", "-final-episodes", "20", "-explain", "0", "-report", rep)...)
		require.Equal(t, 0, code, stderr)
		return readReport(t, rep)["config"].(map[string]any)["context"]
	}
	require.Equal(t, "read", context("-load", read))
	require.Nil(t, context("-load", read, "-context", "bag"))
	require.Nil(t, context("-load", bag))
	require.Equal(t, "read", context("-load", bag, "-context", "read"))
}

// TestBagContextOfAnOrderedTaskWarns: a task that says its instances depend
// on their context's order (task.OrderSensitive: expr, the tape with
// head=context) gets one warning line when its context is taken as a bag,
// none when it is read; a task that does not say so gets none.
func TestBagContextOfAnOrderedTaskWarns(t *testing.T) {
	const warning = "simdrl: warning: the expr task's instances depend on the order of their context tokens"
	for _, c := range []struct {
		args []string
		warn bool
	}{
		{[]string{"-task", "expr", "-context", "bag"}, true},
		{[]string{"-task", "expr"}, false}, // its recipe reads
		{[]string{"-task", "calc", "-context", "bag"}, false},
		{[]string{"-task", "tape", "-task-spec", "head=context; longer=6", "-context", "bag"}, true},
		{[]string{"-task", "tape", "-context", "bag"}, false},
	} {
		code, _, stderr := runCLI(append(append([]string{}, quick...), append(c.args, "-updates", "1")...)...)
		require.Equal(t, 0, code, stderr)
		if c.warn {
			require.Equal(t, 1, strings.Count(stderr, "simdrl: warning: "), "%v: %s", c.args, stderr)
			require.Contains(t, stderr, "-context read keeps the order", c.args)
			if c.args[1] == "expr" {
				require.Contains(t, stderr, warning)
			}
		} else {
			require.NotContains(t, stderr, "warning", c.args)
		}
	}
}

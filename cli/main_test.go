package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/gpu"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e, nil)
	return code, o.String(), e.String()
}

func TestBadFlagsExitTwoWithOneLine(t *testing.T) {
	for _, args := range [][]string{
		{"-device", "tpu"}, {"-threads", "0"}, {"-batch", "0"}, {"-lr", "-1"}, {"-lr", "abc"},
		{"-stages", "0,3"}, {"-stages", ""}, {"-stages", "0,x"}, {"-recipe", "fast"}, {"-updates", "-5"},
		{"-nosuchflag"}, {"-hidden", "0"}, {"-steps", "0"}, {"-clip", "0"}, {"-eval-batch", "0"},
		{"-report", "/nonexistent-dir/r.json"}, {"stray"}, {"-seed", "-1"},
	} {
		code, _, stderr := runCLI(append(args, "-updates", "0", "-final-episodes", "0", "-explain", "0")...)
		if args[0] == "-updates" {
			code, _, stderr = runCLI(args...)
		}
		require.Equalf(t, 2, code, "%v: %s", args, stderr)
		require.Truef(t, strings.HasPrefix(stderr, "simdrl: "), "%v: %q", args, stderr)
		require.Equalf(t, 1, strings.Count(stderr, "\n"), "%v: want one line, got %q", args, stderr)
		require.NotContains(t, stderr, "goroutine")
	}
}

// Without a usable GPU, -device cuda is a one-line usage error naming what
// is missing; it never falls back to the CPU.
func TestCudaWithoutGPUIsAClearError(t *testing.T) {
	if gpu.Available() == nil {
		t.Skip("a GPU is present: the no-GPU error cannot be provoked here (the gpu package tests the GPU path)")
	}
	code, out, stderr := runCLI("-device", "cuda", "-updates", "1")
	require.Equal(t, 2, code)
	require.Regexp(t, `^simdrl: -device cuda: gpu: .+\n$`, stderr)
	require.Empty(t, out, "nothing may run on the CPU instead")
}

// SIMDRL_KERNELS naming a backend this machine does not offer is a one-line
// usage error, not a silent switch to another backend.
func TestUnavailableKernelsAreAClearError(t *testing.T) {
	t.Setenv(kernels.EnvKernels, "no-such-backend")
	code, out, stderr := runCLI("-updates", "1")
	require.Equal(t, 2, code)
	require.Regexp(t, `^simdrl: SIMDRL_KERNELS=no-such-backend is not available on this machine \(it offers generic.*\)\n$`, stderr)
	require.Empty(t, out)
}

func TestHelpListsEveryFlagWithDefaults(t *testing.T) {
	code, out, _ := runCLI("-h")
	require.Equal(t, 0, code)
	for _, f := range []string{"device", "threads", "seed", "recipe", "updates", "batch", "stages", "lr", "hidden",
		"steps", "entropy-coef", "value-coef", "clip", "eval-every", "eval-batch", "final-episodes", "explain", "report", "quiet"} {
		require.Regexpf(t, `--`+f+`[ \[]`, out, "help lacks %s", f)
	}
	require.Contains(t, out, `(default "0,1,2")`)
	// A user's task with no tuning trains on the untuned schedule, not the
	// seed task's defaults that pflag prints: the help says so.
	require.Regexp(t, fmt.Sprintf(`--updates .*no tuning of its own: %d\)`, trainer.UntunedUpdates), out)
	require.Regexp(t, fmt.Sprintf(`--entropy-updates .*no tuning of its own: %d\)`, trainer.UntunedEntropyUpdates), out)
}

func TestSingleAndDoubleDashAgree(t *testing.T) {
	var buf bytes.Buffer
	cl, err := parseCommandLine([]string{"-threads", "3", "-lr=0.002", "--batch", "7", "-stages", "1,2", "-quiet"}, &buf)
	require.NoError(t, err)
	a, err := cl.fresh(nil)
	require.NoError(t, err)
	fa := cl.fl
	b, err := parseFlags([]string{"--threads", "3", "--lr=0.002", "-batch", "7", "--stages", "1,2", "--quiet"}, &buf)
	require.NoError(t, err)
	require.Equal(t, a, b)
	require.Equal(t, 3, a.Threads)
	require.Equal(t, 0.002, a.LR)
	require.Equal(t, 7, a.Batch)
	require.Equal(t, []int{1, 2}, a.TrainLevels)
	require.True(t, fa.quiet)
	// -train-levels is -stages by its other name.
	c, err := parseFlags([]string{"--threads", "3", "--lr=0.002", "-batch", "7", "-train-levels", "1,2", "--quiet"}, &buf)
	require.NoError(t, err)
	require.Equal(t, a, c)
	// A negative value after a flag is a value, not a flag.
	_, err = parseFlags([]string{"-entropy-coef", "-0.5"}, &buf)
	require.ErrorContains(t, err, "-entropy-coef must be in [0, 1000], got -0.5")
}

func TestExplicitFlagOverridesRecipe(t *testing.T) {
	var buf bytes.Buffer
	c, err := parseFlags([]string{"-recipe", "seed", "-updates", "7"}, &buf)
	require.NoError(t, err)
	require.Equal(t, "seed", c.Recipe)
	require.Equal(t, 7, c.Updates)
	require.Equal(t, 192, c.Batch)
	require.Equal(t, 3e-4, c.LR)
}

func TestReportHasTheKeys(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	code, out, stderr := runCLI("-recipe", "seed", "-updates", "4", "-batch", "24", "-eval-every", "2", "-eval-batch", "8",
		"-final-episodes", "10", "-explain", "1", "-report", path)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, "Final greedy solve rates")
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var rep map[string]any
	require.NoError(t, json.Unmarshal(raw, &rep))
	for _, k := range []string{"config", "device", "final", "updates", "wall_seconds", "updates_per_second", "env_steps_per_second", "backend", "param_sha256"} {
		require.Containsf(t, rep, k, "report lacks %s", k)
	}
	final := rep["final"].(map[string]any)
	require.Len(t, final["solve_rate"], 3)
	require.Len(t, final["mean_reward"], 3)
	cfg := rep["config"].(map[string]any)
	for _, k := range []string{"threads", "seed", "recipe", "updates", "batch", "stages", "lr", "hidden", "steps",
		"entropy_coef", "value_coef", "clip", "eval_every", "eval_batch", "final_episodes", "explain"} {
		require.Containsf(t, cfg, k, "report config lacks %s", k)
	}
	for _, k := range []string{"device", "report", "quiet"} {
		require.NotContainsf(t, cfg, k, "%s is the command's, not the training config's", k)
	}
	require.Equal(t, "cpu", rep["device"])
	require.EqualValues(t, 4, rep["updates"])
	require.Len(t, rep["param_sha256"], 64)
}

// FuzzParseFlags: no command line makes the parser panic, and whatever it
// accepts is a valid configuration.
func FuzzParseFlags(f *testing.F) {
	for _, s := range []string{"-threads 16", "--lr=1e-3 -stages 0,1", "-stages ,,,", "-batch -1", "-recipe seed -updates 7",
		"-lr NaN", "-entropy-coef -0.5", "-h", "--", "-resume x -load y", "-stages 0,9", "-seed 18446744073709551615", "-clip +Inf"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var out bytes.Buffer
		cfg, err := parseFlags(strings.Fields(line), &out)
		if err != nil {
			return
		}
		require.NoError(t, cfg.Validate())
	})
}

package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSampledEvaluationReachesEveryOutput: -eval-samples puts pass@1 and
// pass@k beside the greedy figures in the console, every -metrics line,
// TensorBoard (equal to -metrics') and the report; a held-out calc run
// gets its training split's and its subsets' too.
func TestSampledEvaluationReachesEveryOutput(t *testing.T) {
	dir := t.TempDir()
	tb, metrics, rep := filepath.Join(dir, "tb"), filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "r.json")
	code, stdout, stderr := runCLI(append(small, "-updates", "4", "-eval-samples", "4", "-eval-pass-k", "2", "-eval-temperature", "0.7",
		"-metrics", metrics, "-tensorboard", tb, "-report", rep)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "| sampled pass@1/pass@2 T0=")
	require.Contains(t, stdout, "Sampled evaluation (4 samples an instance at temperature 0.7, unbiased estimates):")
	require.Contains(t, stdout, "held-out pass@1 / pass@2 → T0=")
	lines := strings.Split(strings.TrimSpace(readFile(t, metrics)), "\n")
	require.Len(t, lines, 2)
	for _, l := range lines {
		var p map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &p))
		require.Len(t, p["eval_pass_at_1"], len(p["eval_solve_rate"].([]any)))
		require.Len(t, p["eval_pass_at_k"], len(p["eval_solve_rate"].([]any)))
	}
	_, steps, scalars := readTensorBoard(t, tb)
	requireMetrics(t, metrics, steps, scalars)
	require.Contains(t, scalars[0], "eval/pass_at_1/T0")
	require.Contains(t, scalars[0], "eval/pass_at_k/T0")
	sampled := readReport(t, rep)["sampled"].([]any)
	require.NotEmpty(t, sampled)
	first := sampled[0].(map[string]any)
	require.Equal(t, "held-out", first["split"])
	require.EqualValues(t, 4, first["samples"])
	require.EqualValues(t, 2, first["k"])
	require.EqualValues(t, 20, first["instances"])

	code, stdout, _ = runCLI(append(small, "-updates", "2", "-eval-samples", "0")...)
	require.Equal(t, 0, code)
	require.NotContains(t, stdout, "ampled")
}

// Bad sampled-evaluation flags exit 2 with one line.
func TestSampledEvaluationFlagsAreChecked(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-eval-samples", "-1"}, "-eval-samples must be"},
		{[]string{"-eval-samples", "4", "-eval-pass-k", "5"}, "-eval-pass-k must be"},
		{[]string{"-eval-pass-k", "2"}, "needs -eval-samples"},
		{[]string{"-eval-samples", "4", "-eval-temperature", "0"}, "-eval-temperature must be"},
		{[]string{"-eval-samples", "4", "-device", "cuda"}, "CPU engine only"},
	} {
		code, _, stderr := runCLI(append(small, c.args...)...)
		require.Equal(t, 2, code, "%v: %s", c.args, stderr)
		require.Contains(t, stderr, c.want, "%v", c.args)
		require.Equal(t, 1, strings.Count(strings.TrimSpace(stderr), "\n")+1, "one line: %q", stderr)
	}
}

// TestReportReadsTheSampledEvaluation: `simdrl report` over runs with
// -eval-samples has their held-out pass@1 and pass@k as splits beside the
// greedy solve rate, their mean the runs' own figures'.
func TestReportReadsTheSampledEvaluation(t *testing.T) {
	runs, out := t.TempDir(), t.TempDir()
	var p1, pk float64
	for seed := range 3 {
		rep := filepath.Join(runs, fmt.Sprintf("s%d.json", seed))
		code, _, stderr := runCLI(append(small, "-updates", "2", "-seed", fmt.Sprint(seed), "-eval-samples", "4", "-eval-pass-k", "3", "-report", rep)...)
		require.Equal(t, 0, code, stderr)
		first := readReport(t, rep)["sampled"].([]any)[0].(map[string]any)
		p1 += first["pass_at_1"].(float64) / 3
		pk += first["pass_at_k"].(float64) / 3
	}
	code, stdout, stderr := runReport(t, runs, "-o", out, "-bootstrap", "200")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, readFile(t, filepath.Join(out, reportMarkdown)), "held-out pass@1 (sampled)")
	_ = stdout
	s := readSummary(t, filepath.Join(out, reportJSON))
	found := map[string]float64{}
	for _, sp := range s.Configurations[0].Splits {
		if sp.Levels[0] != nil {
			found[sp.Split] = sp.Levels[0].Mean
		}
	}
	require.InDelta(t, p1, found["held-out pass@1 (sampled)"], 1e-12)
	require.InDelta(t, pk, found["held-out pass@k (sampled)"], 1e-12)
	require.Contains(t, found, "held-out")
}

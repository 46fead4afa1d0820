package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDiagnosticsInMetricsAndTensorBoard: -estimator ppo writes its
// diagnostics (approximate KL, clip fraction, explained variance, optimizer
// steps) and a group estimator the fraction of flat groups, into -metrics
// and, the same values, into -tensorboard; REINFORCE writes none.
func TestDiagnosticsInMetricsAndTensorBoard(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"-estimator", "ppo", "-ppo-epochs", "2", "-ppo-minibatches", "2"},
			[]string{"diag/approx_kl", "diag/clip_fraction", "diag/explained_variance", "diag/optimizer_steps"}},
		{[]string{"-estimator", "rloo", "-group", "4"}, []string{"diag/flat_groups", "diag/optimizer_steps"}},
		{nil, nil},
	} {
		dir := t.TempDir()
		tb, metrics := filepath.Join(dir, "tb"), filepath.Join(dir, "m.jsonl")
		args := append([]string{"-updates", "4", "-eval-every", "2", "-batch", "32", "-chunk", "16", "-eval-batch", "10",
			"-final-episodes", "0", "-explain", "0", "-stages", "2", "-metrics", metrics, "-tensorboard", tb}, c.args...)
		code, _, stderr := runCLI(args...)
		require.Equal(t, 0, code, stderr)
		_, steps, scalars := readTensorBoard(t, tb)
		requireMetrics(t, metrics, steps, scalars)
		seen := map[string]bool{} // a figure that is 0 is left out of both: the union over the updates
		for _, s := range scalars {
			for tag := range s {
				if strings.HasPrefix(tag, "diag/") {
					seen[tag] = true
				}
			}
		}
		var got []string
		for tag := range seen {
			got = append(got, tag)
		}
		require.ElementsMatch(t, c.want, got, "%v", c.args)
	}
}

package customtask_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestPluginMainGetsEveryCommand: a main that imports its task and calls
// cli.Main gets simdrl's subcommands with it, not only training: help lists
// them, sweep plans and runs a sweep of its own task (ids from its resolved
// config), and report reads what the sweep wrote.
func TestPluginMainGetsEveryCommand(t *testing.T) {
	dir := t.TempDir()
	bin := buildCommand(t, dir, "maxdigit")

	help, err := exec.Command(bin, "help").CombinedOutput()
	require.NoError(t, err, string(help))
	for _, c := range []string{"train", "sweep", "report", "help"} {
		require.Regexp(t, `(?m)^  `+c+` `, string(help), "help lists %s", c)
	}

	spec := filepath.Join(dir, "spec.yaml")
	require.NoError(t, os.WriteFile(spec, []byte("base: {task: maxdigit, batch: 32, chunk: 16, updates: 3, eval-every: 1, eval-batch: 10, stop-at: 0, final-episodes: 10, explain: 0}\nseeds: [0, 1]\n"), 0o644))
	manifest := filepath.Join(dir, "runs.jsonl")
	out, err := exec.Command(bin, "sweep", "plan", spec, "-o", manifest).CombinedOutput()
	require.NoError(t, err, string(out))
	lines, err := os.ReadFile(manifest)
	require.NoError(t, err)
	require.Equal(t, 2, strings.Count(string(lines), "\n"), "one run a seed")
	require.Contains(t, string(lines), `"-task","maxdigit"`)

	runs := filepath.Join(dir, "runs")
	out, err = exec.Command(bin, "sweep", "run", manifest, "--dir", runs, "--threads", "1").CombinedOutput()
	require.NoError(t, err, string(out))
	done, err := filepath.Glob(filepath.Join(runs, "*", "done"))
	require.NoError(t, err)
	require.Len(t, done, 2, "both runs finished: %s", out)

	out, err = exec.Command(bin, "report", runs, "-o", filepath.Join(dir, "report")).CombinedOutput()
	require.NoError(t, err, string(out))
	md, err := os.ReadFile(filepath.Join(dir, "report", "report.md"))
	require.NoError(t, err)
	require.Contains(t, string(md), "task maxdigit, 2 runs")
}

// TestTaskMainsPassSubcommands: the mains that put their own task first
// (guess, lock, reverse: this module registers several tasks) do so only
// before the train command's flags; a subcommand reaches cli.Main as it is.
// cmd/guess once prefixed every argument list, so "guess help" trained.
func TestTaskMainsPassSubcommands(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"guess", "lock", "reverse"} {
		bin := buildCommand(t, dir, name)
		help, err := exec.Command(bin, "help").CombinedOutput()
		require.NoError(t, err, "%s help: %s", name, help)
		require.Regexp(t, `(?m)^  sweep `, string(help), "%s help lists sweep", name)
	}
}

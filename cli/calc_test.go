package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCalcWithUserLevels: a user's -levels curriculum trains, and the report
// has one final entry per level, held out and on training instances.
func TestCalcWithUserLevels(t *testing.T) {
	rep := filepath.Join(t.TempDir(), "r.json")
	code, out, stderr := runCLI("-task", "calc", "-levels", "a*b, a*b+c, (a*b+c)-d:9", "-updates", "30", "-batch", "64", "-eval-every", "10",
		"-eval-batch", "50", "-final-episodes", "100", "-explain", "1", "-report", rep)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, "Level 2 ((a*b+c)-d) samples:")
	require.Contains(t, out, "held-out instances")
	r := readReport(t, rep)
	final := r["final"].(map[string]any)
	require.Len(t, final["solve_rate"], 3)
	require.Len(t, final["train_solve_rate"], 3)
	cfg := r["config"].(map[string]any)
	require.Equal(t, "calc", cfg["task"])
	require.EqualValues(t, 9, cfg["steps"], "the rollout is as long as the longest budget")
	require.Equal(t, "levels=a*b, a*b+c, (a*b+c)-d:9; partial_credit=0.3", cfg["task_spec"], "the default recipe's partial credit for calc")
	ex := r["explanations"].([]any)[2].(map[string]any)
	require.Equal(t, "(a*b+c)-d", ex["level_name"])
	require.Contains(t, ex["trace"].([]any)[0].(map[string]any)["state"], "v=")
}

// TestLevelsRefused: a level no program can compute within its budget, a
// syntax error, and levels for the seed task are one usage line each.
func TestLevelsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-task", "calc", "-levels", "a*b, a*c+b"}, "no program"},
		{[]string{"-task", "calc", "-levels", "a*b+c*d:5"}, "no program of at most 5"},
		{[]string{"-task", "calc", "-levels", "a*(b"}, "-levels: "},
		{[]string{"-task", "calc", "-levels", ""}, ""},
		{[]string{"-levels", "a*b"}, "-levels applies to the calc task"},
		{[]string{"-partial-credit", "0.3"}, "-partial-credit applies to the calc task"},
		{[]string{"-task", "chess"}, `-task must be calc, countdown3, countdown4, expr, game24, seed or tape, got "chess"`},
		// A problem in -task-spec names -task-spec (it named -levels or -partial-credit).
		{[]string{"-task", "calc", "-task-spec", "partial_credit=11"}, "simdrl: -task-spec: partial_credit: must be in [0, 10], got 11"},
		{[]string{"-task", "calc", "-task-spec", "levels=a*x"}, `simdrl: -task-spec: levels: level 0 "a*x": unknown variable`},
		{[]string{"-task", "calc", "-stages", "0,6"}, "unknown level 6"},
	} {
		code, _, stderr := runCLI(append(c.args, "-updates", "0", "-final-episodes", "0", "-explain", "0")...)
		if c.want == "" { // the empty spec is the default curriculum
			require.Equalf(t, 0, code, "%v: %s", c.args, stderr)
			continue
		}
		require.Equalf(t, 2, code, "%v: %s", c.args, stderr)
		require.Containsf(t, stderr, c.want, "%v", c.args)
		require.Equalf(t, 1, strings.Count(stderr, "\n"), "%v: %q", c.args, stderr)
	}
}

// TestLoadNamesTheCheckpointsTask: -load of a calc model into a run of
// another task or curriculum says with which flags it was trained, in one
// line (it used to say "check -hidden" whatever differed).
func TestLoadNamesTheCheckpointsTask(t *testing.T) {
	ck := filepath.Join(t.TempDir(), "calc.safetensors")
	code, _, stderr := runCLI("-task", "calc", "-levels", "a*b, a*b+c*d", "-updates", "1", "-batch", "16", "-eval-every", "0",
		"-final-episodes", "0", "-explain", "0", "-save", ck)
	require.Equal(t, 0, code, stderr)
	defaults := filepath.Join(t.TempDir(), "calc-default.safetensors")
	code, _, stderr = runCLI("-task", "calc", "-updates", "1", "-batch", "16", "-eval-every", "0", "-final-episodes", "0", "-explain", "0", "-save", defaults)
	require.Equal(t, 0, code, stderr)
	code, _, stderr = runCLI("-task", "calc", "-levels", "a*b", "-load", defaults, "-eval-only", "-final-episodes", "10", "-explain", "0")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "it was trained with the default levels (no -levels)")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-task", "seed"}, "it was trained with -task calc and -levels 'a*b, a*b+c*d'"},
		{[]string{"-task", "calc", "-levels", "a*b, a*b+c*d", "-hidden", "32"}, "it was trained with -hidden 96"},
		{[]string{"-levels", "a*b, a*b+c*d, a*b+c"}, "it was trained with -levels 'a*b, a*b+c*d'"},
		// The same levels spelled otherwise are not named as a difference.
		{[]string{"-levels", "(b*a), c*d+a*b", "-hidden", "32"}, "(it was trained with -hidden 96)"},
	} {
		code, _, stderr := runCLI(append(c.args, "-load", ck, "-eval-only", "-final-episodes", "10", "-explain", "0")...)
		require.Equal(t, 2, code, "%v: %s", c.args, stderr)
		require.Contains(t, stderr, c.want, "%v", c.args)
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	}
}

// TestLoadTakesTheCheckpointsTask: -load, like -resume, runs the task, the
// levels and the width the checkpoint was trained with unless flags say
// otherwise (a calc model once needed -task calc -levels … repeated).
func TestLoadTakesTheCheckpointsTask(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "calc.safetensors")
	code, _, stderr := runCLI("-task", "calc", "-levels", "a*b, a*b+c*d", "-hidden", "24", "-updates", "1", "-batch", "16",
		"-eval-every", "0", "-final-episodes", "0", "-explain", "0", "-save", ck)
	require.Equal(t, 0, code, stderr)
	for _, args := range [][]string{nil, {"-task", "calc"}} {
		rep := filepath.Join(dir, "r.json")
		code, _, stderr = runCLI(append(args, "-load", ck, "-eval-only", "-final-episodes", "10", "-explain", "0", "-report", rep)...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
		r := readReport(t, rep)
		cfg := r["config"].(map[string]any)
		require.Equal(t, "calc", cfg["task"], "%v", args)
		require.Equal(t, "levels=a*b, a*b+c*d; partial_credit=0.3", cfg["task_spec"], "%v", args)
		require.EqualValues(t, 24, cfg["hidden"], "%v", args)
		require.EqualValues(t, 9, cfg["steps"], "%v: the checkpoint's levels' longest budget", args)
	}
}

// TestLoadKeepsTheCheckpointsObservation: an open-loop model of branching
// levels (observe=off) has no observation table; -load must keep it open
// loop (it used to rebuild the spec from the levels alone, so the model
// became an observing one and its checkpoint no longer fit).
func TestLoadKeepsTheCheckpointsObservation(t *testing.T) {
	dir := t.TempDir()
	ck := filepath.Join(dir, "open.safetensors")
	code, _, stderr := runCLI("-task", "calc", "-task-spec", "levels=abs(a-b), max(a,b); observe=off", "-hidden", "16",
		"-updates", "1", "-batch", "16", "-eval-every", "0", "-final-episodes", "0", "-explain", "0", "-save", ck)
	require.Equal(t, 0, code, stderr)
	rep := filepath.Join(dir, "r.json")
	code, _, stderr = runCLI("-load", ck, "-eval-only", "-final-episodes", "10", "-explain", "0", "-report", rep)
	require.Equal(t, 0, code, stderr)
	cfg := readReport(t, rep)["config"].(map[string]any)
	require.Equal(t, "levels=abs(a-b), max(a,b); partial_credit=0.3; observe=off", cfg["task_spec"])
}

package cli

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOldObservationCheckpointNamesItsSpec: a 24 Game checkpoint saved when
// the game observed one token by default (its config's task_spec empty) was
// refused after the default became the vector with "checkpoint has no
// tensor field_emb.0.weight" and no more. -load, -eval-only and -resume now
// say what each model observes and the -task-spec it was trained with; that
// spec then loads it. An observe=fields checkpoint given observe=vector used
// to load, dropping five fields' embeddings; it is refused alike.
func TestOldObservationCheckpointNamesItsSpec(t *testing.T) {
	dir := t.TempDir()
	small := []string{"-task", "game24", "-hidden", "8", "-batch", "8", "-chunk", "8", "-updates", "1"}
	token := saveRun(t, dir, "token.st", append(small, "-task-spec", "observe=token")...)
	old := withConfig(t, token, func(cfg map[string]any) { cfg["task_spec"] = "" })
	fields := saveRun(t, dir, "fields.st", append(small, "-task-spec", "observe=fields")...)
	tokenHint := "(it was trained with observe=token: give -task-spec 'observe=token')"
	for _, c := range []struct {
		args       []string
		says, hint string
	}{
		{[]string{"-load", old, "-eval-only"}, "no tensor field_emb.0.weight: its model observes 24 tokens, this task's model observes 1 field of 24 values and a vector of", tokenHint},
		{[]string{"-load", old, "-updates", "2"}, "its model observes 24 tokens", tokenHint},
		{[]string{"-resume", old, "-updates", "2"}, "its model observes 24 tokens", tokenHint},
		{[]string{"-load", fields, "-task-spec", "observe=vector", "-eval-only"}, `a tensor "field_emb.1.weight" that this model lacks: its model observes 6 fields`,
			"(it was trained with observe=fields: give -task-spec 'observe=fields')"},
	} {
		code, stdout, stderr := runCLI(c.args...)
		require.Equal(t, 2, code, "%v: %s", c.args, stderr)
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		require.Contains(t, stderr, c.says, c.args)
		require.Contains(t, stderr, c.hint, c.args)
		require.NotContains(t, stdout, "Training", c.args)
	}
	// Another task, whose spec editor refuses most of the values tried
	// (calc takes on, off and auto): an observing calc checkpoint given
	// observe=off was refused with no hint, the search stopping at "token".
	calc := saveRun(t, dir, "calc.st", "-task", "calc", "-hidden", "8", "-updates", "1", "-task-spec", "levels=abs(a-b); observe=on")
	code, _, stderr := runCLI("-load", calc, "-task-spec", "levels=abs(a-b); observe=off", "-eval-only")
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "its model observes 9 tokens, this task's model observes nothing")
	require.Contains(t, stderr, "(it was trained with observe=on: give -task-spec 'levels=abs(a-b); observe=on')", stderr)
	// The spec it names loads it.
	for _, args := range [][]string{
		{"-load", old, "-task-spec", "observe=token", "-eval-only", "-final-episodes", "8", "-explain", "0", "-exhaustive", "0"},
		{"-load", fields, "-task-spec", "observe=fields", "-eval-only", "-final-episodes", "8", "-explain", "0", "-exhaustive", "0"},
	} {
		code, _, stderr := runCLI(args...)
		require.Equal(t, 0, code, "%v: %s", args, stderr)
	}
}

package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
)

// TestLoadRefusesABrokenTrainingState: -load took a checkpoint whose
// training state was "this is not json", or had update "-5", as docs/cli.md says
// a broken training state is refused: it is now exit 2 with one line naming
// what is wrong, as under -resume. A checkpoint with no training state at
// all (weights only, as another tool may write one) still loads.
func TestLoadRefusesABrokenTrainingState(t *testing.T) {
	dir := t.TempDir()
	ck := saveRun(t, dir, "run.st")
	f, err := checkpoint.ReadFile(ck)
	require.NoError(t, err)
	// edited writes ck with its metadata changed by edit.
	edited := func(name string, edit func(m map[string]string)) string {
		g := *f
		g.Metadata = map[string]string{}
		for k, v := range f.Metadata {
			g.Metadata[k] = v
		}
		edit(g.Metadata)
		p := filepath.Join(dir, name)
		require.NoError(t, checkpoint.WriteFile(p, &g))
		return p
	}
	state := f.Metadata["state"]
	require.Contains(t, state, `"update":3,`)
	eval := []string{"-eval-only", "-final-episodes", "8", "-explain", "0"}
	for _, c := range []struct {
		name string
		edit func(m map[string]string)
		want string
	}{
		{"not-json.st", func(m map[string]string) { m["state"] = "this is not json" }, "checkpoint state: not valid JSON"},
		{"update-string.st", func(m map[string]string) {
			m["state"] = strings.Replace(state, `"update":3,`, `"update":"-5",`, 1)
		}, "checkpoint state: json: cannot unmarshal string into Go struct field trainState.update of type int"},
		{"update-negative.st", func(m map[string]string) {
			m["state"] = strings.Replace(strings.Replace(state, `"update":3,`, `"update":-5,`, 1), `"adam_step":3,`, `"adam_step":-5,`, 1)
			m["update"] = "-5"
		}, "checkpoint state: update -5 is negative"},
		{"unlocked.st", func(m map[string]string) {
			m["state"] = strings.Replace(state, `"unlocked":`, `"unlocked":9`, 1)
		}, "checkpoint state: unlocked 9"},
	} {
		p := edited(c.name, c.edit)
		for _, mode := range []string{"-load", "-resume"} {
			code, stdout, stderr := runGuarded(t, append([]string{mode, p}, eval...)...)
			require.Equalf(t, 2, code, "%s %s: %s", mode, c.name, stderr)
			require.Equalf(t, 1, strings.Count(stderr, "\n"), "%s %s: want one line, got %q", mode, c.name, stderr)
			require.Containsf(t, stderr, "simdrl: "+mode+" "+p+": "+c.want, "%s %s", mode, c.name)
			require.NotContains(t, stdout, "Final greedy", "%s %s", mode, c.name)
		}
	}

	// No training state at all: -load takes the weights (-resume needs it).
	for name, edit := range map[string]func(m map[string]string){
		"no-state.st": func(m map[string]string) { delete(m, "state") },
		"weights-only.st": func(m map[string]string) {
			for k := range m {
				delete(m, k)
			}
		},
	} {
		p := edited(name, edit)
		code, stdout, stderr := runCLI(append([]string{"-load", p}, eval...)...)
		require.Equalf(t, 0, code, "%s: %s", name, stderr)
		require.Contains(t, stdout, "Final greedy solve rates", name)
	}
	// So is the corpus's file without one (its model's size from flags).
	code, stdout, stderr := runCLI(append([]string{"-load", filepath.Join(corpusDir, "state-missing.safetensors"), "-hidden", "4", "-threads", "1"}, eval...)...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "Final greedy solve rates")
}

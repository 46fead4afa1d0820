package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// -exhaustive takes [0, MaxExhaustive]; anything else is one line and exit 2.
func TestExhaustiveFlagRange(t *testing.T) {
	for _, v := range []string{"-1", fmt.Sprint(trainer.MaxExhaustive + 1), "many"} {
		code, out, stderr := runCLI("-task", "calc", "-updates", "0", "-explain", "0", "-exhaustive", v)
		require.Equal(t, 2, code, "-exhaustive %s: %s", v, stderr)
		require.Empty(t, out)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "-exhaustive %s: %q", v, stderr)
		require.Contains(t, stderr, "exhaustive")
	}
	code, out, _ := runCLI("-h")
	require.Equal(t, 0, code)
	require.Contains(t, out, fmt.Sprintf("[0, %d] (0 disables) (default %d)", trainer.MaxExhaustive, trainer.MaxExhaustive))
}

// exhaustiveRun runs calc's default levels untrained with -exhaustive's
// args and returns the output and the report's exhaustive tallies.
func exhaustiveRun(t *testing.T, args ...string) (string, []task.LevelTally) {
	path := filepath.Join(t.TempDir(), "r.json")
	code, out, stderr := runCLI(append([]string{"-task", "calc", "-updates", "0", "-final-episodes", "10", "-explain", "0",
		"-threads", "1", "-report", path}, args...)...)
	require.Equal(t, 0, code, stderr)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var rep struct {
		Exhaustive []task.LevelTally `json:"exhaustive"`
	}
	require.NoError(t, json.Unmarshal(raw, &rep))
	return out, rep.Exhaustive
}

// The exhaustive evaluation plays each level's splits whole when none has
// more than -exhaustive instances, says so in a line that counts what it
// plays, and leaves out the other levels; -exhaustive 0 plays nothing.
func TestExhaustiveFlagBoundsTheWork(t *testing.T) {
	planLine := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "Exhaustive evaluation: ") {
				return l
			}
		}
		return ""
	}
	tally := func(ls []task.LevelTally) (listed, instances, most int) {
		for _, l := range ls {
			if l.Listed {
				listed++
				instances += l.HeldOut.N + l.Training.N
				most = max(most, l.HeldOut.N, l.Training.N)
			}
		}
		return
	}

	out, full := exhaustiveRun(t)
	listed, instances, most := tally(full)
	require.Greater(t, listed, 1)
	require.Less(t, listed, len(full), "calc's default levels: the largest are beyond the default bound")
	require.Equal(t, fmt.Sprintf("Exhaustive evaluation: %d levels × 2 splits, %d instances (each level's splits whole, at most %d instances each; %d levels with more left out)",
		listed, instances, trainer.MaxExhaustive, len(full)-listed), planLine(out))

	// A bound below the largest listed split leaves that level out.
	bound := most - 1
	out, some := exhaustiveRun(t, "-exhaustive", fmt.Sprint(bound))
	l, n, m := tally(some)
	require.Less(t, l, listed)
	require.Less(t, n, instances)
	require.LessOrEqual(t, m, bound)
	require.Contains(t, planLine(out), fmt.Sprintf("at most %d instances each", bound))
	for i := range some {
		if some[i].Listed {
			require.Equal(t, full[i], some[i], "a level played whole is played as before")
		}
	}
	require.Contains(t, out, fmt.Sprintf("more than %d instances in a split, not listed", bound))

	out, none := exhaustiveRun(t, "-exhaustive", "0")
	require.Nil(t, none)
	require.Empty(t, planLine(out))
	require.NotContains(t, out, "Every instance, greedy")
}

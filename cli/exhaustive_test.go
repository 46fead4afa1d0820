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

// The exhaustive evaluation plays each level's splits whole when they have
// at most -exhaustive instances, and a level's other splits when one has
// more (calc's largest training split: its held-out split is played
// alone), says so in a line that counts what it plays, and leaves out the
// levels with no such split; -exhaustive 0 plays nothing.
func TestExhaustiveFlagBoundsTheWork(t *testing.T) {
	planLine := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "Exhaustive evaluation: ") {
				return l
			}
		}
		return ""
	}
	tally := func(ls []task.LevelTally) (listed, instances, most, splits, unlisted int) {
		for _, l := range ls {
			if l.Listed {
				listed++
				instances += l.HeldOut.N + l.Training.N
				most = max(most, l.HeldOut.N, l.Training.N)
				splits += 2 - len(l.Unlisted)
				unlisted += len(l.Unlisted)
			}
		}
		return
	}
	count := func(n int, noun string) string {
		if n == 1 {
			return "1 " + noun
		}
		return fmt.Sprintf("%d %ss", n, noun)
	}

	out, full := exhaustiveRun(t)
	listed, instances, most, splits, unlisted := tally(full)
	require.Greater(t, listed, 1)
	require.Positive(t, unlisted, "calc's default levels: a training split beyond the default bound, its held-out split played alone")
	want := fmt.Sprintf("Exhaustive evaluation: %d levels, %d splits in all, %d instances (each level's splits whole, at most %d instances each",
		listed, splits, instances, trainer.MaxExhaustive)
	if left := len(full) - listed; left > 0 {
		want += "; " + count(left, "level") + " with more left out"
	}
	require.Equal(t, want+"; "+count(unlisted, "split")+" with more left out)", planLine(out))
	require.Contains(t, out, "(training not listed)")

	// A bound below the largest listed split leaves that split out.
	bound := most - 1
	out, some := exhaustiveRun(t, "-exhaustive", fmt.Sprint(bound))
	l, n, m, sp, _ := tally(some)
	require.LessOrEqual(t, l, listed)
	require.Less(t, n, instances)
	require.LessOrEqual(t, m, bound)
	require.Less(t, sp, splits, "fewer splits are played")
	require.Contains(t, planLine(out), fmt.Sprintf("at most %d instances each", bound))
	for i := range some {
		if some[i].Listed && len(some[i].Unlisted) == len(full[i].Unlisted) {
			require.Equal(t, full[i], some[i], "a level played as whole as before is played as before")
		}
	}

	out, none := exhaustiveRun(t, "-exhaustive", "0")
	require.Nil(t, none)
	require.Empty(t, planLine(out))
	require.NotContains(t, out, "Every instance, greedy")
}

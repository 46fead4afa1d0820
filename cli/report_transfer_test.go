package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReportHasTheTransferSplit: the tape task plays its longer levels only
// on its transfer split (sizes it never trains on): simdrl report reads that
// split too, with those levels there and not in held-out or training, so
// the task's claim to generalise is in the summary instead of being lost;
// and no learning curve is drawn for a level the held-out split never plays.
func TestReportHasTheTransferSplit(t *testing.T) {
	dir := t.TempDir()
	for seed := range 2 {
		var errb bytes.Buffer
		code := Run([]string{"-task", "tape", "-seed", fmt.Sprint(seed), "-updates", "2", "-batch", "16", "-chunk", "16", "-eval-every", "1", "-eval-batch", "16",
			"-final-episodes", "16", "-explain", "0", "-exhaustive", "0", "-threads", "1", "-quiet",
			"-report", filepath.Join(dir, fmt.Sprintf("s%d.json", seed))}, &bytes.Buffer{}, &errb)
		require.Equal(t, 0, code, errb.String())
	}
	out := t.TempDir()
	code, _, errb := runReport(t, dir, "-o", out, "-bootstrap", "100")
	require.Equal(t, 0, code, errb)
	raw, err := os.ReadFile(filepath.Join(out, reportJSON))
	require.NoError(t, err)
	var s struct {
		Configurations []struct {
			Runs []struct {
				Transfer []*float64 `json:"transfer"`
			} `json:"runs"`
			Curves []struct {
				Updates []int `json:"updates"`
			} `json:"curves"`
			Splits []struct {
				Split  string `json:"split"`
				Levels []*struct {
					Runs int `json:"runs"`
				} `json:"levels"`
			} `json:"splits"`
		} `json:"configurations"`
	}
	require.NoError(t, json.Unmarshal(raw, &s))
	c := s.Configurations[0]
	played := map[string][]bool{}
	for _, sp := range c.Splits {
		for _, l := range sp.Levels {
			played[sp.Split] = append(played[sp.Split], l != nil)
		}
	}
	require.Contains(t, played, "transfer")
	for l := range played["transfer"] {
		require.NotEqual(t, played["transfer"][l], played["held-out"][l], "level %d: on the transfer split or the held-out one, not both, not neither", l)
	}
	require.Contains(t, played["transfer"], true)
	require.Contains(t, played["held-out"], true)
	require.Len(t, c.Runs[0].Transfer, len(played["transfer"]))
	// The periodic evaluations play the held-out split: a transfer level
	// has no learning curve (its metrics' 0s were never measured).
	require.Len(t, c.Curves, len(played["held-out"]))
	for l, cv := range c.Curves {
		require.Equal(t, played["held-out"][l], len(cv.Updates) > 0, "level %d's curve", l)
	}
	md, err := os.ReadFile(filepath.Join(out, reportMarkdown))
	require.NoError(t, err)
	require.Contains(t, string(md), "| transfer |")
}

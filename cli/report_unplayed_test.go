package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReportLeavesUnplayedLevelsOut: a level a run's final evaluation did
// not play is null in its report (it was 0, a figure never measured);
// simdrl report reads it, leaves it out of the statistics and says so,
// instead of averaging a 0 in.
func TestReportLeavesUnplayedLevelsOut(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"s0.json", "s1.json", "s2.json"} {
		b, err := os.ReadFile(filepath.Join(flatRuns, f))
		require.NoError(t, err)
		b = editReport(t, b, func(m map[string]any) {
			final := m["final"].(map[string]any)
			final["solve_rate"].([]any)[2] = nil
			final["mean_reward"].([]any)[2] = nil
		})
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	out := t.TempDir()
	code, _, errb := runReport(t, dir, "-o", out, "-bootstrap", "100")
	require.Equal(t, 0, code, errb)

	raw, err := os.ReadFile(filepath.Join(out, reportJSON))
	require.NoError(t, err)
	var s struct {
		Configurations []struct {
			Runs []struct {
				HeldOut []*float64 `json:"held_out"`
			} `json:"runs"`
			Splits []struct {
				Levels []*struct {
					Runs int `json:"runs"`
				} `json:"levels"`
				All struct {
					Runs int `json:"runs"`
				} `json:"all_levels"`
			} `json:"splits"`
		} `json:"configurations"`
	}
	require.NoError(t, json.Unmarshal(raw, &s))
	c := s.Configurations[0]
	require.Len(t, c.Runs, 3)
	for _, r := range c.Runs {
		require.Len(t, r.HeldOut, 3)
		require.Nil(t, r.HeldOut[2], "a level not played stays null")
		require.NotNil(t, r.HeldOut[0])
	}
	levels := c.Splits[0].Levels
	require.Len(t, levels, 3)
	require.NotNil(t, levels[0])
	require.Nil(t, levels[2], "no estimate for a level no run played")
	md, err := os.ReadFile(filepath.Join(out, reportMarkdown))
	require.NoError(t, err)
	require.Contains(t, string(md), "| level 2 | held-out | not played |")
}

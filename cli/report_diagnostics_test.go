package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/stats"
	"github.com/stretchr/testify/require"
)

// The fixtures in testdata/report/diag are real runs of the seed task, 120
// updates evaluated every 5: seeds 0–2 of -estimator rloo -group 8 and of
// -estimator ppo -lr 3e-4 -ppo-epochs 2 -norm-adv=false (ppo seed 1 meets
// the stop rule at update 100), each with its -metrics file.
const diagRuns = "testdata/report/diag"

// metricsFigures reads a -metrics file as plain JSON, apart from the
// report's types: per line, its update and its figures, grad_norm and the
// diagnostics object's (a figure missing from a line that has the object
// is 0, as -metrics leaves a 0 out); hasDiag says which lines have it.
func metricsFigures(t *testing.T, path string) (updates []int, figures []map[string]float64, hasDiag []bool) {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Update      int                 `json:"update"`
			GradNorm    float64             `json:"grad_norm"`
			Diagnostics *map[string]float64 `json:"diagnostics"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line))
		m := map[string]float64{"grad_norm": line.GradNorm}
		if line.Diagnostics != nil {
			for _, k := range []string{"approx_kl", "clip_fraction", "explained_variance", "flat_groups"} {
				m[k] = (*line.Diagnostics)[k]
			}
		}
		updates, figures, hasDiag = append(updates, line.Update), append(figures, m), append(hasDiag, line.Diagnostics != nil)
	}
	require.NoError(t, sc.Err())
	return updates, figures, hasDiag
}

func TestReportSummarisesDiagnostics(t *testing.T) {
	dir := t.TempDir()
	code, _, errb := runReport(t, diagRuns, "-o", dir, "-bootstrap", "500")
	require.Equal(t, 0, code, errb)
	s := readSummary(t, filepath.Join(dir, reportJSON))
	require.Len(t, s.Configurations, 2)
	want := map[string][]string{ // what each estimator computes, beside every update's gradient norm
		"ppo":  {"grad_norm", "approx_kl", "clip_fraction", "explained_variance"},
		"rloo": {"grad_norm", "flat_groups"},
	}
	for _, c := range s.Configurations {
		est := c.Config["estimator"].(string)
		var names []string
		for _, d := range c.Diagnostics {
			names = append(names, d.Name)
		}
		require.Equal(t, want[est], names, est)
		for _, d := range c.Diagnostics {
			var finals, lates []float64
			lateCounts := 0
			for i, seed := range c.Seeds {
				updates, figs, hasDiag := metricsFigures(t, filepath.Join(diagRuns, fmt.Sprintf("%s-s%d.jsonl", est, seed)))
				var us []int
				var xs []float64
				for j := range updates {
					if d.Name == "grad_norm" || hasDiag[j] {
						us, xs = append(us, updates[j]), append(xs, figs[j][d.Name])
					}
				}
				last := us[len(us)-1]
				var late []float64
				for j, u := range us {
					if 10*u >= 9*last { // the last 10% of the run's updates
						late = append(late, xs[j])
					}
				}
				require.Equal(t, seed, d.BySeed[i].Seed)
				require.InDelta(t, xs[len(xs)-1], d.BySeed[i].Final, 1e-12, "%s %s seed %d: final", est, d.Name, seed)
				require.InDelta(t, stats.Mean(late), d.BySeed[i].Late, 1e-12, "%s %s seed %d: the late mean", est, d.Name, seed)
				require.Equal(t, len(late), d.BySeed[i].Count)
				finals, lates = append(finals, xs[len(xs)-1]), append(lates, stats.Mean(late))
				lateCounts += len(late)
			}
			require.Greater(t, lateCounts, len(c.Seeds), "the fixtures' late windows hold more than one evaluation")
			require.InDelta(t, stats.IQM(finals), d.Final.IQM, 1e-12, "%s %s", est, d.Name)
			require.InDelta(t, stats.IQM(lates), d.Late.IQM, 1e-12, "%s %s", est, d.Name)
			require.Equal(t, len(c.Seeds), d.Late.Runs)
			require.LessOrEqual(t, d.Late.IQMCI.Lo, d.Late.IQM)
			require.GreaterOrEqual(t, d.Late.IQMCI.Hi, d.Late.IQM)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, reportMarkdown))
	require.NoError(t, err)
	require.Contains(t, string(md), "| approx_kl | ")
	require.Contains(t, string(md), "| flat_groups | ")
}

// REINFORCE computes no estimator diagnostics: its runs' report has the
// gradient norm alone; a run with no evaluation at all (no -metrics, none
// in its report) leaves its configuration without diagnostics, and the
// JSON without the key.
func TestReportDiagnosticsAbsentWhereRunsHaveNone(t *testing.T) {
	dir := t.TempDir()
	code, _, errb := runReport(t, flatRuns, "-o", dir, "-bootstrap", "100")
	require.Equal(t, 0, code, errb)
	c := readSummary(t, filepath.Join(dir, reportJSON)).Configurations[0]
	require.Len(t, c.Diagnostics, 1)
	require.Equal(t, "grad_norm", c.Diagnostics[0].Name)

	runs := t.TempDir()
	for i, f := range []string{"s0.json", "s1.json"} {
		b, err := os.ReadFile(filepath.Join(flatRuns, f))
		require.NoError(t, err)
		if i == 1 {
			b = editReport(t, b, func(m map[string]any) { delete(m, "evaluations") })
		}
		require.NoError(t, os.WriteFile(filepath.Join(runs, f), b, 0o644))
	}
	code, out, errb := runReport(t, runs, "-o", dir, "-bootstrap", "100")
	require.Equal(t, 0, code, errb)
	require.NotContains(t, out, "Training diagnostics")
	b, err := os.ReadFile(filepath.Join(dir, reportJSON))
	require.NoError(t, err)
	require.False(t, strings.Contains(string(b), `"diagnostics"`), "no diagnostics key")
	require.True(t, slices.Equal(readSummary(t, filepath.Join(dir, reportJSON)).Configurations[0].Seeds, []uint64{0, 1}))
}

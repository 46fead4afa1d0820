package cli

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/stats"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// The fixtures in testdata/report are real runs of the seed task, 180
// updates each: flat/ holds five seeds of the default recipe (two never
// solve; seed 4 ran 100 updates, then was resumed to 180 and solved at
// 120, writing its -metrics across both parts), sweep/ three seeds at
// -lr 0.0005 in a sweep's layout (DIR/<run-id>/report.json and
// metrics.jsonl), none of which solves.
const (
	flatRuns  = "testdata/report/flat"
	sweepRuns = "testdata/report/sweep"
)

// runReport runs `simdrl report args…` and returns its exit code and streams.
func runReport(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"report"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// fixtureReports reads the reports under dir, by seed.
func fixtureReports(t *testing.T, dir string) []*trainer.Report {
	t.Helper()
	var reps []*trainer.Report
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".json" {
			return err
		}
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		rep := new(trainer.Report)
		require.NoError(t, json.Unmarshal(b, rep))
		reps = append(reps, rep)
		return nil
	}))
	slices.SortFunc(reps, func(a, b *trainer.Report) int { return int(a.Config.Seed) - int(b.Config.Seed) })
	return reps
}

func heldOut(reps []*trainer.Report) stats.Scores {
	m := make(stats.Scores, len(reps))
	for i, r := range reps {
		m[i] = r.Final.SolveRate
	}
	return m
}

func readSummary(t *testing.T, path string) *seedSummary {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	s := new(seedSummary)
	require.NoError(t, json.Unmarshal(b, s))
	return s
}

func TestReportOverSeedsEndToEnd(t *testing.T) {
	dir := t.TempDir()
	code, out, errb := runReport(t, flatRuns, sweepRuns, "-o", dir, "-bootstrap", "2000", "-seed", "3")
	require.Equal(t, 0, code, errb)
	require.Empty(t, errb)
	require.Contains(t, out, "8 runs, 2 configurations")
	s := readSummary(t, filepath.Join(dir, reportJSON))
	require.Equal(t, reportFormat, s.Format)
	require.Len(t, s.Configurations, 2)

	flat, sweep := fixtureReports(t, flatRuns), fixtureReports(t, sweepRuns)
	byLabel := map[string]*configSummary{}
	for _, c := range s.Configurations {
		byLabel[c.Label] = c
	}
	require.Contains(t, byLabel, "lr=0.001", "configurations are told apart by what differs: -lr")
	require.Contains(t, byLabel, "lr=0.0005")
	for label, reps := range map[string][]*trainer.Report{"lr=0.001": flat, "lr=0.0005": sweep} {
		c := byLabel[label]
		require.Len(t, c.Seeds, len(reps), label)
		m := heldOut(reps)
		for i, r := range c.Runs {
			require.Equal(t, nullable(m[i]), r.HeldOut, "%s seed %d", label, r.Seed)
			require.NotEmpty(t, r.Metrics, "%s seed %d: its -metrics file was found", label, r.Seed)
		}
		require.Equal(t, "held-out", c.Splits[0].Split)
		for l := range s.Levels {
			e := c.Splits[0].Levels[l]
			require.InDelta(t, stats.IQM(m.Task(l)), e.IQM, 1e-12, "%s level %d", label, l)
			require.InDelta(t, stats.Mean(m.Task(l)), e.Mean, 1e-12)
			require.InDelta(t, stats.Min(m.Task(l)), e.Min, 1e-12)
			require.LessOrEqual(t, e.IQMCI.Lo, e.IQM)
			require.GreaterOrEqual(t, e.IQMCI.Hi, e.IQM)
		}
		require.InDelta(t, stats.AggregateIQM(m), c.Splits[0].All.IQM, 1e-12)
		require.Equal(t, stats.ScoreDistribution(m, c.Profile.Taus), c.Profile.Fraction)
		require.Equal(t, 0.9, c.TopProfile.Taus[0], "the lowest score is below 0.9: the top profile starts at its floor")
		require.Equal(t, stats.ScoreDistribution(m, c.TopProfile.Taus), c.TopProfile.Fraction)

		// Runs that never solve are counted, at the updates they ran.
		solved, unsolved := 0, 0
		for _, r := range reps {
			if stoppedSolved(r) {
				solved++
			}
		}
		require.Equal(t, solved, c.Solve.Solved, label)
		require.Equal(t, len(reps), c.Solve.Updates.Runs, "%s: no run dropped", label)
		for i, v := range c.Solve.BySeed {
			if !v.Solved {
				unsolved++
				require.Equal(t, reps[i].Updates, v.Updates, "%s seed %d: counted at its budget", label, v.Seed)
			}
		}
		require.Equal(t, len(reps)-solved, unsolved)
		require.Positive(t, unsolved, "%s: the fixtures hold runs that never solve", label)
	}
	require.Len(t, s.Improvement, 1)
	p := s.Improvement[0]
	x, y := heldOut(sweep), heldOut(flat)
	if p.X == "lr=0.001" {
		x, y = y, x
	}
	require.InDelta(t, stats.ProbabilityOfImprovement(x, y), p.P, 1e-12)
	require.LessOrEqual(t, p.CI.Lo, p.P)
	require.GreaterOrEqual(t, p.CI.Hi, p.P)

	md, err := os.ReadFile(filepath.Join(dir, reportMarkdown))
	require.NoError(t, err)
	for _, want := range []string{"## lr=0.001: 5 runs, seeds 0–4", "## lr=0.0005: 3 runs, seeds 0–2", "| updates | ≥ ", "did not solve", "P(X > Y)", "profiles.png, curves.png"} {
		require.Contains(t, string(md), want)
	}
	for _, name := range []string{reportProfiles, reportCurves} {
		f, err := os.Open(filepath.Join(dir, name))
		require.NoError(t, err)
		cfg, err := png.DecodeConfig(f)
		f.Close()
		require.NoError(t, err, name)
		require.Greater(t, cfg.Width, 500, name)
	}
}

// A resumed run's learning curve is whole: seed 4's report holds only the
// evaluation of its resumed part (update 120), its -metrics all of them,
// and the curve counts it from the first evaluation on.
func TestReportCurvesReadAResumedRunsWholeMetrics(t *testing.T) {
	resumed := fixtureReports(t, flatRuns)[4]
	require.Len(t, resumed.Evaluations, 1, "the fixture: the resumed part's report evaluated once")
	dir := t.TempDir()
	code, _, errb := runReport(t, flatRuns, "-o", dir, "-bootstrap", "200")
	require.Equal(t, 0, code, errb)
	c := readSummary(t, filepath.Join(dir, reportJSON)).Configurations[0]
	for _, cv := range c.Curves {
		require.Equal(t, 20, cv.Updates[0])
		for i, n := range cv.Runs {
			require.Equal(t, 5, n, "level %s, update %d: every run, the resumed one from its first part on, and after a stop", cv.Level, cv.Updates[i])
		}
	}
}

func TestReadCurveKeepsTheLastLineOfAnUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.jsonl")
	line := func(u int, x float64) string {
		b, _ := json.Marshal(trainer.EvalPoint{Update: u, SolveRate: []float64{x}})
		return string(b) + "\n"
	}
	// a run to 40, resumed from its checkpoint at 20: 40 again, then 60; then a line cut off
	data := line(20, 0.1) + line(40, 0.2) + line(40, 0.3) + line(60, 0.4) + `{"update":80,"eval_sol`
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	curve, err := readCurve(path, 1)
	require.NoError(t, err)
	var got [][2]float64
	for _, p := range curve {
		got = append(got, [2]float64{float64(p.Update), p.SolveRate[0]})
	}
	require.Equal(t, [][2]float64{{20, 0.1}, {40, 0.3}, {60, 0.4}}, got)

	require.NoError(t, os.WriteFile(path, []byte(line(20, 0.1)+"{oops\n"+line(40, 1)), 0o644))
	_, err = readCurve(path, 1)
	require.ErrorContains(t, err, "line 2: corrupt JSON")
}

func TestReportIsReproducible(t *testing.T) {
	var files [3][]byte
	for i, seed := range []string{"5", "5", "6"} {
		dir := t.TempDir()
		code, _, errb := runReport(t, flatRuns, "-o", dir, "-bootstrap", "500", "-seed", seed)
		require.Equal(t, 0, code, errb)
		var err error
		files[i], err = os.ReadFile(filepath.Join(dir, reportJSON))
		require.NoError(t, err)
	}
	require.Equal(t, string(files[0]), string(files[1]), "the same runs and -seed give the same report")
	require.NotEqual(t, string(files[0]), string(files[2]), "another -seed draws other resamples")
}

func TestReportWritesMarkdownToStdoutWithoutO(t *testing.T) {
	code, out, errb := runReport(t, filepath.Join(flatRuns, "s1.json"), filepath.Join(flatRuns, "s2.json"), "-bootstrap", "100")
	require.Equal(t, 0, code, errb)
	require.True(t, strings.HasPrefix(out, "# simdrl report: task seed, 2 runs, 1 configuration\n"), out)
	require.Contains(t, out, "## default recipe: 2 runs, seeds 1, 2")
	require.Contains(t, out, "Solved (the stop rule at 0.99): 2 of 2 runs")
}

// A directory holding the report's own output is read as before: its
// report.json is passed over, not taken for a run, as is a JSON file in it
// that is no run's report (named on the command line, it is an error:
// TestReportBadInputIsOneLine).
func TestReportPassesOverItsOwnOutput(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"s0.json", "s0.jsonl", "s1.json"} {
		b, err := os.ReadFile(filepath.Join(flatRuns, f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	// and a JSON file that is no run's report (a sweep's plan, say)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "plan.json"), []byte(`{"grid": {"lr": [0.001]}}`), 0o644))
	for range 2 {
		code, out, errb := runReport(t, dir, "-o", dir, "-bootstrap", "100")
		require.Equal(t, 0, code, errb)
		require.Contains(t, out, "2 runs, 1 configuration")
	}
}

func TestReportLeavesOutInterruptedRunsWithANote(t *testing.T) {
	dir := t.TempDir()
	for i, f := range []string{"s0.json", "s1.json"} {
		b, err := os.ReadFile(filepath.Join(flatRuns, f))
		require.NoError(t, err)
		if i == 1 { // as an interrupted run writes it: no final evaluation
			b = editReport(t, b, func(m map[string]any) {
				m["interrupted"] = true
				m["final"] = map[string]any{"episodes": 0, "solve_rate": nil, "mean_reward": nil}
			})
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), b, 0o644))
	}
	code, out, errb := runReport(t, dir, "-bootstrap", "100")
	require.Equal(t, 0, code, errb)
	require.Contains(t, errb, "left out "+filepath.Join(dir, "s1.json")+": interrupted after update 180")
	require.Contains(t, out, "1 runs, 1 configuration")
}

// editReport changes a report's JSON.
func editReport(t *testing.T, b []byte, edit func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	edit(m)
	out, err := json.Marshal(m)
	require.NoError(t, err)
	return out
}

// Bad input is one line, exit 2, never a panic.
func TestReportBadInputIsOneLine(t *testing.T) {
	good, err := os.ReadFile(filepath.Join(flatRuns, "s0.json"))
	require.NoError(t, err)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, b, 0o644))
		return p
	}
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.Mkdir(empty, 0o755))
	corrupt := write("corrupt.json", good[:len(good)/2])
	other := write("other.json", []byte(`{"name": "not a report"}`))
	calc := write("calc.json", editReport(t, good, func(m map[string]any) { m["config"].(map[string]any)["task"] = "calc" }))
	rates := write("rates.json", editReport(t, good, func(m map[string]any) { m["final"].(map[string]any)["solve_rate"] = []float64{1} }))
	dup := write("dup/s0.json", good)
	badMetrics := write("bm/s0.json", good)
	write("bm/s0.jsonl", []byte("{\"update\": 20}\n{\"update\": 40}\n"))
	file := write("file", []byte("x"))
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "name the runs"},
		{[]string{empty}, "no run reports (*.json) in it or below it"},
		{[]string{filepath.Join(dir, "nosuch")}, "no such file or directory"},
		{[]string{corrupt}, "corrupt.json: corrupt JSON"},
		{[]string{other}, "not a run's report"},
		{[]string{flatRuns, calc}, "mixed tasks"},
		{[]string{rates}, "1 solve rates for 3 levels"},
		{[]string{flatRuns, dup}, "both seed 0 of one configuration"},
		{[]string{badMetrics}, "s0.jsonl: line 1: 0 solve rates for the report's 3 levels"},
		{[]string{flatRuns, "-bootstrap", "5"}, "-bootstrap 5"},
		{[]string{flatRuns, "-o", file}, "not a directory"},
		{[]string{flatRuns, "-nosuch"}, "unknown flag"},
	} {
		code, out, errb := runReport(t, c.args...)
		require.Equal(t, exitUsage, code, "%q: %s", c.args, errb)
		require.Empty(t, out, "%q", c.args)
		require.Equal(t, 1, strings.Count(errb, "\n"), "one line for %q: %s", c.args, errb)
		require.True(t, strings.HasPrefix(errb, "simdrl: report: "), errb)
		require.Contains(t, errb, c.want, "%q", c.args)
	}
}

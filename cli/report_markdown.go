package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/simdrl/simdrl/stats"
)

// writeMarkdown writes the report's tables: per configuration, the final
// solve rates by level and split, then the updates and seconds to solve;
// then P(X > Y) between configurations.
func writeMarkdown(w io.Writer, s *seedSummary, pngs []string) {
	runs := 0
	for _, c := range s.Configurations {
		runs += len(c.Seeds)
	}
	task := s.Task
	if s.TaskSpec != "" {
		task += " (`" + s.TaskSpec + "`)"
	}
	fmt.Fprintf(w, "# simdrl report: task %s, %d runs, %d configuration%s\n\n", task, runs, len(s.Configurations), plural(len(s.Configurations)))
	fmt.Fprintf(w, "IQM: the interquartile mean, the mean of the middle half of the runs (25%% cut each side). "+
		"[…]: 95%% stratified bootstrap confidence intervals (percentile, %d resamples, seed %d). sd: over the runs (n−1).\n", s.Bootstrap, s.Seed)
	for _, c := range s.Configurations {
		fmt.Fprintf(w, "\n## %s: %d run%s, seeds %s\n\n", c.Label, len(c.Seeds), plural(len(c.Seeds)), seedList(c.Seeds))
		fmt.Fprintf(w, "Final solve rate (greedy, the final evaluation's episodes per level):\n\n")
		fmt.Fprintf(w, "| level | split | IQM [95%% CI] | mean ± sd [95%% CI] | min |\n|---|---|---|---|---:|\n")
		for _, sp := range c.Splits {
			for i, e := range append(sp.Levels, &sp.All) {
				if e == nil { // a level some run did not play
					fmt.Fprintf(w, "| %s | %s | not played | | |\n", levelLabel(i, s.Levels[i]), sp.Split)
					continue
				}
				name := e.Name
				if i < len(sp.Levels) {
					name = levelLabel(i, e.Name)
				}
				fmt.Fprintf(w, "| %s | %s | %s | %s | %.3f |\n", name, sp.Split, withCI("%.3f", e.IQM, e.IQMCI), meanSD("%.3f", *e), e.Min)
			}
		}
		if sv := c.Solve; sv != nil {
			fmt.Fprintf(w, "\nSolved (the stop rule at %g): %d of %d runs, %.2f [%.2f, %.2f].", sv.StopAt, sv.Solved, sv.Runs,
				sv.SolvedFraction, sv.SolvedFractionCI.Lo, sv.SolvedFractionCI.Hi)
			bound := ""
			if sv.Solved < sv.Runs {
				bound = "≥ "
				fmt.Fprintf(w, " The %d that did not solve count at the updates and seconds they ran, so the figures marked ≥ are lower bounds.", sv.Runs-sv.Solved)
			}
			fmt.Fprintf(w, "\n\n| to solve | IQM [95%% CI] | mean ± sd [95%% CI] | min |\n|---|---|---|---:|\n")
			fmt.Fprintf(w, "| updates | %s%s | %s%s | %.0f |\n", bound, withCI("%.0f", sv.Updates.IQM, sv.Updates.IQMCI), bound, meanSD("%.0f", sv.Updates), sv.Updates.Min)
			fmt.Fprintf(w, "| seconds | %s%s | %s%s | %.2f |\n", bound, withCI("%.2f", sv.Seconds.IQM, sv.Seconds.IQMCI), bound, meanSD("%.2f", sv.Seconds), sv.Seconds.Min)
		}
		if len(c.Diagnostics) > 0 {
			fmt.Fprintf(w, "\nTraining diagnostics (from the evaluations' -metrics lines): at each run's last evaluation, and each run's mean over "+
				"its evaluations in the last 10%% of its updates; IQM over the runs:\n\n| diagnostic | final IQM [95%% CI] | last 10%% IQM [95%% CI] |\n|---|---|---|\n")
			for _, d := range c.Diagnostics {
				fmt.Fprintf(w, "| %s | %s | %s |\n", d.Name, withCI("%.4g", d.Final.IQM, d.Final.IQMCI), withCI("%.4g", d.Late.IQM, d.Late.IQMCI))
			}
		}
	}
	if len(s.Improvement) > 0 {
		fmt.Fprintf(w, "\n## Probability of improvement\n\nP(X > Y): the chance that a run of X beats a run of Y on a level drawn at random "+
			"(final held-out solve rate; ties count 1/2), averaged over the levels.\n\n| X | Y | P(X > Y) [95%% CI] |\n|---|---|---|\n")
		for _, p := range s.Improvement {
			fmt.Fprintf(w, "| %s | %s | %s |\n", p.X, p.Y, withCI("%.3f", p.P, p.CI))
		}
	}
	if len(pngs) > 0 {
		fmt.Fprintf(w, "\nFigures: %s.\n", strings.Join(pngs, ", "))
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// withCI is "x [lo, hi]" in format f.
func withCI(f string, x float64, ci stats.Interval) string {
	return fmt.Sprintf(f+" ["+f+", "+f+"]", x, ci.Lo, ci.Hi)
}

// meanSD is "mean ± sd [lo, hi]" in format f.
func meanSD(f string, e estimate) string {
	return fmt.Sprintf(f+" ± "+f+" ["+f+", "+f+"]", e.Mean, e.SD, e.MeanCI.Lo, e.MeanCI.Hi)
}

// seedList is the seeds, runs of consecutive ones as ranges: "0–4, 7".
func seedList(seeds []uint64) string {
	var parts []string
	for i := 0; i < len(seeds); {
		j := i
		for j+1 < len(seeds) && seeds[j+1] == seeds[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, fmt.Sprint(seeds[i]))
		case j == i+1:
			parts = append(parts, fmt.Sprint(seeds[i]), fmt.Sprint(seeds[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d–%d", seeds[i], seeds[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// levelLabel is level i's name in a table: "level 2", or its spelling as
// code ("3: `a*b+c*d`", not emphasis).
func levelLabel(i int, name string) string {
	if name != fmt.Sprintf("level %d", i) {
		return fmt.Sprintf("%d: `%s`", i, name)
	}
	return name
}

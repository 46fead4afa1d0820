package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	flag "github.com/spf13/pflag"

	"github.com/simdrl/simdrl/internal/atomicfile"
)

func init() {
	RegisterCommand(Command{Name: "report", Summary: "statistics over seeds from runs' -report files: IQM, bootstrap CIs, profiles, learning curves", Run: reportCommand})
}

// The report's files in -o DIR.
const (
	reportMarkdown = "report.md"
	reportJSON     = "report.json"
	reportProfiles = "profiles.png"
	reportCurves   = "curves.png"
)

// reportCommand runs `simdrl report RUN_OR_DIR… [-o DIR] [-seed N]
// [-bootstrap N]`: it reads runs' reports, groups them into configurations
// (runs that differ only in the seed) and writes their statistics over
// seeds (report_summary.go) as Markdown, JSON and PNGs.
func reportCommand(args []string, env Env) int {
	usage := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "simdrl: report: %s\n", strings.ReplaceAll(fmt.Sprintf(format, a...), "\n", "; "))
		return exitUsage
	}
	fs := flag.NewFlagSet("simdrl report", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	out := fs.StringP("out", "o", "", "write report.md, report.json, profiles.png and curves.png into this directory (made if missing) instead of the Markdown on stdout")
	seed := fs.Uint64("seed", 0, "the bootstrap's seed: the same runs and seed give the same intervals")
	reps := fs.Int("bootstrap", 10000, fmt.Sprintf("resamples per confidence interval [100, 1000000] (learning curves: at most %d)", curveReps))
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(normalizeArgs(args, fs)); err != nil {
		return usage("%s (simdrl report -h)", strings.Replace(err.Error(), "--", "-", 1))
	}
	if *help {
		fmt.Fprintf(env.Stdout, "Usage: simdrl report RUN_OR_DIR… [-o DIR] [-seed N] [-bootstrap N]\n\n"+
			"Statistics over seeds of runs' reports (the JSON of simdrl -report FILE) and their -metrics\n"+
			"(NAME.jsonl beside NAME.json, or metrics.jsonl beside a sweep's report.json). A directory is\n"+
			"searched for *.json reports. Runs are grouped by configuration (configs that differ only in\n"+
			"-seed and -threads). docs/cli.md describes the output.\n\n%s", fs.FlagUsages())
		return 0
	}
	if fs.NArg() == 0 {
		return usage("name the runs: simdrl report RUN.json… or DIR (simdrl report -h)")
	}
	if *reps < 100 || *reps > 1000000 {
		return usage("-bootstrap %d: resamples in [100, 1000000]", *reps)
	}
	if *out != "" {
		if fi, err := os.Stat(*out); err == nil && !fi.IsDir() {
			return usage("-o %s: not a directory", *out)
		}
	}
	runs, err := readRuns(fs.Args(), env.Stderr)
	if err != nil {
		return usage("%v", err)
	}
	configs, err := groupRuns(runs)
	if err != nil {
		return usage("%v", err)
	}
	sm := &summarizer{reps: *reps, seed: *seed}
	summary, err := sm.summarize(configs)
	if err != nil {
		fmt.Fprintf(env.Stderr, "simdrl: report: %v\n", err)
		return exitFail
	}
	if *out == "" {
		writeMarkdown(env.Stdout, summary, nil)
		return 0
	}
	written, err := writeReportFiles(*out, summary)
	if err != nil {
		fmt.Fprintf(env.Stderr, "simdrl: report: -o %s: %v\n", *out, err)
		return exitFail
	}
	fmt.Fprintf(env.Stdout, "simdrl report: %d runs, %d configuration%s: wrote %s\n", len(runs), len(configs), plural(len(configs)), strings.Join(written, ", "))
	return 0
}

// readRuns reads every report args name. A run that was interrupted or
// failed is left out with a note (its final evaluation is of a run cut
// short: resume it); a report `simdrl report` wrote is passed over.
func readRuns(args []string, stderr io.Writer) ([]*seedRun, error) {
	paths, err := findReports(args)
	if err != nil {
		return nil, err
	}
	var runs []*seedRun
	for _, rp := range paths {
		p := rp.path
		r, skip, err := readRun(rp)
		if err != nil {
			return nil, err
		}
		switch {
		case skip:
		case r.rep.Interrupted:
			fmt.Fprintf(stderr, "simdrl: report: left out %s: interrupted after update %d (resume it, and report its new report)\n", p, r.rep.Updates)
		case r.rep.Error != "":
			fmt.Fprintf(stderr, "simdrl: report: left out %s: the run failed (%s)\n", p, r.rep.Error)
		default:
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("no complete run reports in %s", strings.Join(args, " "))
	}
	return runs, nil
}

// writeReportFiles writes the report into dir (made if missing), each file
// atomically, and returns their paths.
func writeReportFiles(dir string, s *seedSummary) ([]string, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, pathless(err)
	}
	var written, pngs []string
	write := func(name string, draw func(path string) error) error {
		path := filepath.Join(dir, name)
		if err := draw(path); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		written = append(written, path)
		return nil
	}
	if err := write(reportProfiles, func(p string) error { return writeProfiles(p, s) }); err != nil {
		return nil, err
	}
	pngs = append(pngs, reportProfiles)
	if hasCurves(s) {
		if err := write(reportCurves, func(p string) error { return writeCurves(p, s) }); err != nil {
			return nil, err
		}
		pngs = append(pngs, reportCurves)
	}
	js, err := json.MarshalIndent(s, "", " ")
	if err != nil {
		return nil, err
	}
	if err := write(reportJSON, func(p string) error { return atomicfile.Write(p, append(js, '\n')) }); err != nil {
		return nil, err
	}
	var md bytes.Buffer
	writeMarkdown(&md, s, pngs)
	if err := write(reportMarkdown, func(p string) error { return atomicfile.Write(p, md.Bytes()) }); err != nil {
		return nil, err
	}
	return written, nil
}

// hasCurves: some run had evaluations to draw.
func hasCurves(s *seedSummary) bool {
	for _, c := range s.Configurations {
		for _, cv := range c.Curves {
			if len(cv.Updates) > 0 {
				return true
			}
		}
	}
	return false
}

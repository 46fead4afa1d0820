package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/simdrl/simdrl/trainer"
)

// seedRun is one run that `simdrl report` reads: its report (-report) and,
// when found beside it, its evaluations from -metrics.
type seedRun struct {
	path    string // the report's file
	rep     *trainer.Report
	metrics string              // the -metrics file read ("" when none was found)
	curve   []trainer.EvalPoint // the run's evaluations by update, whole across resumes
}

// reportFormat marks the JSON that `simdrl report` writes, so that a
// directory holding one (report -o DIR inside the runs' DIR) is not read
// as a run.
const reportFormat = "simdrl-seed-report/1"

// pathless is err without the path an *fs.PathError repeats, for a
// message that names the path itself.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// reportPath is a report file to read; named: given as an argument (not
// found in a directory), so that a JSON file that is no run's report is an
// error, where a directory's (a sweep's plan, say) is passed over.
type reportPath struct {
	path  string
	named bool
}

// findReports lists the report files that args name: a file as given; a
// directory searched through, every *.json in it or below it (a sweep's
// DIR/<run-id>/report.json, or a flat directory of reports).
func findReports(args []string) ([]reportPath, error) {
	var paths []reportPath
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a, pathless(err))
		}
		if !fi.IsDir() {
			paths = append(paths, reportPath{a, true})
			continue
		}
		found := 0
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".json") {
				paths = append(paths, reportPath{p, false})
				found++
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", a, err)
		}
		if found == 0 {
			return nil, fmt.Errorf("%s: no run reports (*.json) in it or below it", a)
		}
	}
	return paths, nil
}

// readRun reads the report at path and its metrics; skip is true for a
// file `simdrl report` wrote itself, and for a JSON file found in a
// directory that is no run's report.
func readRun(rp reportPath) (run *seedRun, skip bool, err error) {
	path := rp.path
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %v", path, pathless(err))
	}
	var probe struct {
		Format string          `json:"format"`
		Config json.RawMessage `json:"config"`
		Final  json.RawMessage `json:"final"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return nil, false, fmt.Errorf("%s: corrupt JSON: %v", path, err)
	}
	if probe.Format == reportFormat {
		return nil, true, nil
	}
	if probe.Config == nil || probe.Final == nil {
		if !rp.named {
			return nil, true, nil
		}
		return nil, false, fmt.Errorf("%s: not a run's report (no \"config\" or \"final\": the JSON that simdrl -report writes)", path)
	}
	rep := new(trainer.Report)
	if err := json.Unmarshal(b, rep); err != nil {
		return nil, false, fmt.Errorf("%s: corrupt report: %v", path, err)
	}
	run = &seedRun{path: path, rep: rep, curve: rep.Evaluations}
	if rep.Interrupted || rep.Error != "" {
		return run, false, nil // left out by the caller: its final evaluation is missing
	}
	if err := checkRunReport(rep); err != nil {
		return nil, false, fmt.Errorf("%s: %v", path, err)
	}
	if m := metricsBeside(path); m != "" {
		curve, err := readCurve(m, len(rep.Levels))
		if err != nil {
			return nil, false, fmt.Errorf("%s: %v", m, err)
		}
		run.metrics, run.curve = m, curve
	}
	return run, false, nil
}

// checkRunReport refuses a report the statistics cannot use.
func checkRunReport(rep *trainer.Report) error {
	levels := len(rep.Levels)
	switch {
	case rep.Config.Task == "" || levels == 0:
		return errors.New("not a run's report (no task or no levels)")
	case len(rep.Final.SolveRate) != levels:
		return fmt.Errorf("the final evaluation has %d solve rates for %d levels", len(rep.Final.SolveRate), levels)
	case rep.Final.TrainSolveRate != nil && len(rep.Final.TrainSolveRate) != levels:
		return fmt.Errorf("the final evaluation has %d training solve rates for %d levels", len(rep.Final.TrainSolveRate), levels)
	case rep.Final.TransferSolveRate != nil && len(rep.Final.TransferSolveRate) != levels:
		return fmt.Errorf("the final evaluation has %d transfer solve rates for %d levels", len(rep.Final.TransferSolveRate), levels)
	}
	for _, xs := range [][]float64{rep.Final.SolveRate, rep.Final.TrainSolveRate, rep.Final.TransferSolveRate} {
		for _, x := range xs {
			if !(x >= 0 && x <= 1) && !math.IsNaN(x) { // NaN: a level not played (null)
				return fmt.Errorf("a final solve rate of %v", x)
			}
		}
	}
	return nil
}

// metricsBeside is the -metrics file of the report at path, when there is
// one: a sweep's DIR/<run-id>/metrics.jsonl beside report.json, or
// NAME.jsonl beside NAME.json.
func metricsBeside(path string) string {
	dir, base := filepath.Split(path)
	candidates := []string{strings.TrimSuffix(path, filepath.Ext(path)) + ".jsonl"}
	if strings.EqualFold(base, "report.json") {
		candidates = append([]string{filepath.Join(dir, "metrics.jsonl")}, candidates...)
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

// readCurve reads a -metrics file: one evaluation a line. A resumed run
// appends to the file it was writing, so an update may come twice (an
// evaluation an interrupt cut short, redone; a run resumed from an earlier
// checkpoint): the last line for an update is the one that counts. A last
// line cut off (a run killed while writing it) is left out, as the next
// run's -metrics would remove it.
func readCurve(path string, levels int) ([]trainer.EvalPoint, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, pathless(err)
	}
	lines := bytes.Split(b, []byte("\n"))
	torn := len(b) > 0 && b[len(b)-1] != '\n' // the last line has no end
	byUpdate := map[int]trainer.EvalPoint{}
	for i, text := range lines {
		text = bytes.TrimSpace(text)
		if len(text) == 0 {
			continue
		}
		var p trainer.EvalPoint
		if err := json.Unmarshal(text, &p); err != nil {
			if torn && i == len(lines)-1 {
				break // cut off by a killed run
			}
			return nil, fmt.Errorf("line %d: corrupt JSON: %v", i+1, err)
		}
		if len(p.SolveRate) != levels {
			return nil, fmt.Errorf("line %d: %d solve rates for the report's %d levels: the metrics of another run?", i+1, len(p.SolveRate), levels)
		}
		byUpdate[p.Update] = p
	}
	curve := make([]trainer.EvalPoint, 0, len(byUpdate))
	for _, p := range byUpdate {
		curve = append(curve, p)
	}
	slices.SortFunc(curve, func(a, b trainer.EvalPoint) int { return a.Update - b.Update })
	return curve, nil
}

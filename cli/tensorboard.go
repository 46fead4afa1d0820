package cli

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"

	"github.com/simdrl/simdrl/internal/tbevents"
	"github.com/simdrl/simdrl/trainer"
)

// checkTensorBoard fails, before any work, when -tensorboard's directory
// could not be made or written (tbevents.CheckDir), holds another run's
// events (TensorBoard would show the two runs as one) unless the run resumes
// (its own directory, then), or is, or would be made under, another output's
// path (-save run -tensorboard run/tb would turn the checkpoint's path into
// a directory).
func checkTensorBoard(dir string, outs []output, resuming bool) error {
	if err := tbevents.CheckDir(dir); err != nil {
		return fmt.Errorf("-tensorboard: %v", err)
	}
	files, err := tbevents.Files(dir)
	if err != nil {
		return fmt.Errorf("-tensorboard: %v", err)
	}
	if len(files) > 0 && !resuming {
		return fmt.Errorf("-tensorboard %s holds another run's events (%s): TensorBoard would show both as one run; name a new directory, or -resume the run that wrote them", dir, filepath.Base(files[0]))
	}
	d, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("-tensorboard: %v", err)
	}
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		p, err := filepath.Abs(o.path)
		if err != nil {
			return fmt.Errorf("%s: %v", o.flag, err)
		}
		if rel, err := filepath.Rel(p, d); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return fmt.Errorf("-tensorboard %s is, or is under, %s %s: write the events to another directory", dir, o.flag, o.path)
		}
	}
	return nil
}

// tensorBoard writes each periodic evaluation's scalars, -metrics' values
// under TensorBoard tags, as one event whose step is the update.
type tensorBoard struct{ w eventsWriter }

// eventsWriter is what tensorBoard writes to: a *tbevents.Writer.
type eventsWriter interface {
	Write(step int64, scalars []tbevents.Scalar) error
	Close() error
}

// createEvents starts the events file (tests put a failing one here).
var createEvents = func(dir string) (eventsWriter, error) {
	w, err := tbevents.Create(dir)
	if err != nil {
		return nil, err // not a nil *Writer inside a non-nil interface
	}
	return w, nil
}

// openTensorBoard starts a new events file in dir (made if missing); a
// resumed run's file sits beside the first one's and continues its steps.
// A file there whose last record was cut off (a run killed, or a full disk,
// while writing it) is first cut to its last whole record, with a note on
// stderr.
func openTensorBoard(dir string, stderr io.Writer) (*tensorBoard, error) {
	torn, err := tbevents.RepairDir(dir)
	for _, t := range torn {
		fmt.Fprintf(stderr, "simdrl: -tensorboard: %s: removed its cut-off last record (%d bytes), left by a run stopped while writing it\n", t.File, t.Bytes)
	}
	if err != nil {
		return nil, err
	}
	w, err := createEvents(dir)
	if err != nil {
		return nil, err
	}
	return &tensorBoard{w: w}, nil
}

// evaluated is trainer.Options.Evaluated.
func (tb *tensorBoard) evaluated(p trainer.EvalPoint, trained bool) error {
	if err := tb.w.Write(int64(p.Update), evalScalars(p, trained)); err != nil {
		return &trainer.OutputError{Output: "-tensorboard", Err: err}
	}
	return nil
}

func (tb *tensorBoard) Close() error { return tb.w.Close() }

// evalScalars are p's values by tag: the update's statistics (unless it is
// an evaluation redone on resume, which has none), the entropy coefficient,
// the evaluations' solve rates and mean rewards per level (T0, T1, …) and
// split, and the confirmation's; none for a level not played (NaN).
func evalScalars(p trainer.EvalPoint, trained bool) []tbevents.Scalar {
	var s []tbevents.Scalar
	add := func(tag string, v float64) { s = append(s, tbevents.Scalar{Tag: tag, Value: float32(v)}) }
	perLevel := func(prefix string, v []float64) {
		for i, x := range v {
			if !math.IsNaN(x) { // a level not played has no scalar at this step
				add(fmt.Sprintf("%s/T%d", prefix, i), x)
			}
		}
	}
	if trained {
		add("train/reward", p.TrainReward)
		add("train/solve_rate", p.TrainSolve)
		add("train/grad_norm", p.GradNorm)
		add("loss/pg", p.Loss.PG)
		add("loss/value", p.Loss.Value)
		add("loss/entropy", p.Loss.Entropy)
		add("loss/replay", p.Loss.Replay)
		add("loss/total", p.Loss.Total)
		add("perf/updates_per_second", p.UpdatesPerSecond)
		diagnosticScalars(p.Diagnostics, add)
	}
	add("train/entropy_coef", p.EntropyCoef)
	perLevel("eval/solve_rate", p.SolveRate)
	perLevel("eval/mean_reward", p.MeanReward)
	perLevel("eval/training_solve_rate", p.TrainingSplit)
	perLevel("eval/pass_at_1", p.PassAt1) // -eval-samples
	perLevel("eval/pass_at_k", p.PassAtK)
	if c := p.Confirmation; c != nil {
		perLevel("confirm/solve_rate", c.SolveRate)
		perLevel("confirm/lower_bound", c.LowerBound)
		add("confirm/alpha", c.Alpha)
		solved := 0.0
		if c.Solved {
			solved = 1
		}
		add("confirm/solved", solved)
	}
	return s
}

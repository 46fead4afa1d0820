package cli

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/internal/tbdecode"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// tensorBoardTags maps a -metrics line's number keys to the TensorBoard
// tags that carry them ("loss.PG": the PG key of the loss object); the
// arrays (one value per level) are in tensorBoardLevelTags.
var tensorBoardTags = map[string]string{
	"train_reward": "train/reward", "train_solve_rate": "train/solve_rate", "grad_norm": "train/grad_norm",
	"loss.PG": "loss/pg", "loss.Value": "loss/value", "loss.Entropy": "loss/entropy", "loss.Replay": "loss/replay",
	"loss.Total": "loss/total", "updates_per_second": "perf/updates_per_second", "entropy_coef": "train/entropy_coef",
	"confirmation.solved": "confirm/solved", "confirmation.alpha": "confirm/alpha",
	"diagnostics.approx_kl": "diag/approx_kl", "diagnostics.clip_fraction": "diag/clip_fraction",
	"diagnostics.explained_variance": "diag/explained_variance", "diagnostics.flat_groups": "diag/flat_groups",
	"diagnostics.optimizer_steps": "diag/optimizer_steps",
}

var tensorBoardLevelTags = map[string]string{
	"eval_solve_rate": "eval/solve_rate", "eval_mean_reward": "eval/mean_reward",
	"eval_training_solve_rate": "eval/training_solve_rate",
	"eval_pass_at_1":           "eval/pass_at_1",
	"eval_pass_at_k":           "eval/pass_at_k",
	"confirmation.solve_rate":  "confirm/solve_rate", "confirmation.lower_bound": "confirm/lower_bound",
}

// notScalars are the -metrics keys TensorBoard does not get: the step
// itself, the levels' label, and a confirmation's own update, number, size,
// split and per-subset counts.
var notScalars = []string{"update", "stage", "confirmation.update", "confirmation.number", "confirmation.episodes",
	"confirmation.split", "confirmation.training_subsets"}

// metricsScalars is a -metrics line as the scalars TensorBoard should have
// of it, read from the JSON alone; every key of the line must be mapped or
// known not to be a scalar, so that a metric added to -metrics and not to
// -tensorboard fails here.
func metricsScalars(t *testing.T, line []byte) (step int64, scalars map[string]float32) {
	var m map[string]any
	require.NoError(t, json.Unmarshal(line, &m))
	scalars = map[string]float32{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			key := prefix + k
			switch v := v.(type) {
			case map[string]any:
				walk(key+".", v)
				continue
			case float64:
				if tag, ok := tensorBoardTags[key]; ok {
					scalars[tag] = float32(v)
					continue
				}
			case bool:
				if tag, ok := tensorBoardTags[key]; ok {
					scalars[tag] = map[bool]float32{true: 1}[v]
					continue
				}
			case []any:
				if tag, ok := tensorBoardLevelTags[key]; ok {
					for i, x := range v {
						if x != nil { // null: a level not played, no scalar
							scalars[fmt.Sprintf("%s/T%d", tag, i)] = float32(x.(float64))
						}
					}
					continue
				}
			}
			require.Containsf(t, notScalars, key, "-metrics has %s, which -tensorboard does not write", key)
		}
	}
	walk("", m)
	return int64(m["update"].(float64)), scalars
}

// readTensorBoard decodes every events file of dir, in the order
// TensorBoard reads them (by name), into its file-version events and the
// scalars of each step, in order.
func readTensorBoard(t *testing.T, dir string) (files []string, steps []int64, scalars []map[string]float32) {
	files, err := filepath.Glob(filepath.Join(dir, "events.out.tfevents.*"))
	require.NoError(t, err)
	slices.Sort(files)
	for _, f := range files {
		events, err := tbdecode.ReadFile(f)
		require.NoError(t, err)
		require.NotEmpty(t, events, f)
		require.Equal(t, "brain.Event:2", events[0].FileVersion, "%s opens with its file version", f)
		for _, e := range events[1:] {
			require.Empty(t, e.FileVersion)
			m := map[string]float32{}
			for _, v := range e.Values {
				require.NotContainsf(t, m, v.Tag, "step %d has %s twice", e.Step, v.Tag)
				m[v.Tag] = v.SimpleValue
			}
			steps, scalars = append(steps, e.Step), append(scalars, m)
		}
	}
	return files, steps, scalars
}

// TestTensorBoardHasTheMetrics: a run with -tensorboard and -metrics, then
// its resume into the same directory, leaves one events file per run start
// whose scalars, decoded by the independent decoder, are exactly the
// -metrics lines' values at the same steps (updates), a confirmation's
// included; the resumed file continues the steps.
func TestTensorBoardHasTheMetrics(t *testing.T) {
	dir := t.TempDir()
	tb, metrics, ck := filepath.Join(dir, "runs", "a"), filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "c.safetensors")
	args := []string{"-batch", "64", "-chunk", "16", "-eval-every", "5", "-eval-batch", "20", "-final-episodes", "20", "-explain", "0",
		"-stages", "0", "-stop-at", "0.1", "-entropy-final", "0", "-metrics", metrics, "-tensorboard", tb}
	code, _, stderr := runCLI(append(args, "-updates", "6", "-save", ck)...)
	require.Equal(t, 0, code, stderr)
	files, _, _ := readTensorBoard(t, tb)
	require.Len(t, files, 1)
	code, out, stderr := runCLI(append(args, "-resume", ck, "-updates", "100")...)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, out, "confirmation 1 on", "the run reaches a confirmation")

	files, steps, scalars := readTensorBoard(t, tb)
	require.Len(t, files, 2, "the resumed run writes a file of its own")
	requireMetrics(t, metrics, steps, scalars)
	_, confirmed := scalars[len(scalars)-1]["confirm/solved"]
	require.True(t, confirmed, "a confirmation was compared")
	require.True(t, slices.IsSorted(steps), "steps continue across the files: %v", steps)
}

// requireMetrics requires the events' steps and scalars to be the -metrics
// file's lines, in order.
func requireMetrics(t *testing.T, metrics string, steps []int64, scalars []map[string]float32) {
	lines := strings.Split(strings.TrimSpace(readFile(t, metrics)), "\n")
	require.GreaterOrEqual(t, len(lines), 2)
	require.Len(t, steps, len(lines))
	for i, l := range lines {
		step, want := metricsScalars(t, []byte(l))
		require.Equalf(t, step, steps[i], "event %d", i)
		require.Equalf(t, want, scalars[i], "update %d", step)
	}
}

// TestTensorBoardTrainingSplit: the expr task's evaluations on its training
// items reach TensorBoard too, equal to -metrics'.
func TestTensorBoardTrainingSplit(t *testing.T) {
	dir := t.TempDir()
	tb, metrics := filepath.Join(dir, "tb"), filepath.Join(dir, "m.jsonl")
	code, _, stderr := runCLI("-task", "expr", "-updates", "4", "-eval-every", "2", "-batch", "32", "-eval-batch", "10",
		"-final-episodes", "0", "-explain", "0", "-metrics", metrics, "-tensorboard", tb)
	require.Equal(t, 0, code, stderr)
	_, steps, scalars := readTensorBoard(t, tb)
	requireMetrics(t, metrics, steps, scalars)
	require.Contains(t, scalars[0], "eval/training_solve_rate/T0")
}

// TestTensorBoardRedoneEvaluation: an evaluation redone on resume (no
// update's statistics) writes its evaluation and entropy scalars and no
// training ones, which it does not have.
func TestTensorBoardRedoneEvaluation(t *testing.T) {
	p := trainer.EvalPoint{Update: 5, SolveRate: []float64{1, 0.5}, MeanReward: []float64{1, 0.75}, EntropyCoef: 0.01}
	got := map[string]float32{}
	for _, s := range evalScalars(p, false) {
		got[s.Tag] = s.Value
	}
	require.Equal(t, map[string]float32{"train/entropy_coef": 0.01, "eval/solve_rate/T0": 1, "eval/solve_rate/T1": 0.5,
		"eval/mean_reward/T0": 1, "eval/mean_reward/T1": 0.75}, got)
}

// TestTensorBoardLeavesUnplayedLevelsOut: a level the evaluation did not
// play (NaN, null in -metrics) wrote a scalar 0 (a NaN before the point
// said NaN); it has no scalar at that step, evaluation's or
// confirmation's, and the levels played keep theirs.
func TestTensorBoardLeavesUnplayedLevelsOut(t *testing.T) {
	nan := math.NaN()
	p := trainer.EvalPoint{Update: 5, SolveRate: []float64{1, nan}, MeanReward: []float64{1, nan}, TrainingSplit: []float64{nan, 0.5},
		Confirmation: &trainer.Confirmation{SolveRate: []float64{1, nan}, LowerBound: []float64{0.99, nan}, Alpha: 0.01}}
	got := map[string]float32{}
	for _, s := range evalScalars(p, false) {
		got[s.Tag] = s.Value
	}
	require.Equal(t, map[string]float32{"train/entropy_coef": 0, "eval/solve_rate/T0": 1, "eval/mean_reward/T0": 1,
		"eval/training_solve_rate/T1": 0.5, "confirm/solve_rate/T0": 1, "confirm/lower_bound/T0": 0.99,
		"confirm/alpha": 0.01, "confirm/solved": 0}, got)
}

// TestTensorBoardBadDirectory: a -tensorboard that cannot be a directory of
// events files is exit 2 with one line before any work.
func TestTensorBoardBadDirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-tensorboard", file}, "simdrl: -tensorboard: " + file + " is not a directory\n"},
		{[]string{"-tensorboard", filepath.Join(file, "run")}, "simdrl: -tensorboard: " + filepath.Join(file, "run") + ": " + file + " is not a directory\n"},
		{[]string{"-tensorboard", filepath.Join(dir, "s"), "-save", filepath.Join(dir, "s")}, "simdrl: -tensorboard " + filepath.Join(dir, "s") + " is, or is under, -save " + filepath.Join(dir, "s") + ": write the events to another directory\n"},
		{[]string{"-tensorboard", filepath.Join(dir, "s", "tb"), "-report", filepath.Join(dir, "s")}, "is, or is under, -report"},
		{[]string{"-tensorboard", dir, "-eval-only", "-load", file}, "simdrl: -eval-only makes no periodic evaluations for -tensorboard"},
	} {
		code, out, stderr := runCLI(append(c.args, "-updates", "2")...)
		require.Equalf(t, 2, code, "%v", c.args)
		require.Contains(t, stderr, c.msg)
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		require.Empty(t, out)
	}
	require.NoDirExists(t, filepath.Join(dir, "s"))
	events, err := filepath.Glob(filepath.Join(dir, "*", "events.out.tfevents.*"))
	require.NoError(t, err)
	require.Empty(t, events, "nothing written")
}

// TestTensorBoardRefusesWhatItCannotUse: a -tensorboard that is a symbolic
// link to nothing (or lies under one), or a directory that holds another
// run's events, is exit 2 with one line before any work; the directory of a
// run being resumed is its own, and accepted.
func TestTensorBoardRefusesWhatItCannotUse(t *testing.T) {
	dir := t.TempDir()
	dangling := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), dangling))
	used, ck := filepath.Join(dir, "used"), filepath.Join(dir, "c.st")
	code, _, stderr := runCLI(append(small, "-updates", "2", "-tensorboard", used, "-save", ck)...)
	require.Equal(t, 0, code, stderr)
	files, _, _ := readTensorBoard(t, used)
	require.Len(t, files, 1)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"-tensorboard", dangling}, "simdrl: -tensorboard: " + dangling + " is a symbolic link to " + filepath.Join(dir, "nowhere") + ", which does not exist\n"},
		{[]string{"-tensorboard", filepath.Join(dangling, "run")}, "simdrl: -tensorboard: " + filepath.Join(dangling, "run") + ": " + dangling + " is a symbolic link to " + filepath.Join(dir, "nowhere") + ", which does not exist\n"},
		{[]string{"-tensorboard", used}, "simdrl: -tensorboard " + used + " holds another run's events (" + filepath.Base(files[0]) + "): TensorBoard would show both as one run; name a new directory, or -resume the run that wrote them\n"},
	} {
		code, out, stderr := runCLI(append(c.args, "-updates", "2")...)
		require.Equalf(t, 2, code, "%v", c.args)
		require.Equal(t, c.msg, stderr)
		require.Empty(t, out)
	}
	require.NoFileExists(t, filepath.Join(dir, "nowhere"))
	code, _, stderr = runCLI(append(small, "-updates", "4", "-tensorboard", used, "-resume", ck)...)
	require.Equal(t, 0, code, stderr)
	files, steps, _ := readTensorBoard(t, used)
	require.Len(t, files, 2)
	require.Equal(t, []int64{2, 4}, steps)
}

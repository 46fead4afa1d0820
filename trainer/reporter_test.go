package trainer

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// recorder is a Reporter that notes each event it is told of, in order.
func recorder(events *[]string) *Reporter {
	note := func(format string, a ...any) { *events = append(*events, fmt.Sprintf(format, a...)) }
	return &Reporter{
		Started: func(cfg Config, _, _ string, resumed int) { note("started %d of %d", resumed, cfg.Updates) },
		Updated: func(u int, _ float64, st UpdateStats) { note("updated %d (stats of %d)", u, st.Update) },
		Evaluated: func(p EvalPoint, heldOut, training []EvalResult, trained bool) error {
			note("evaluated %d: %d levels, training split %v, trained %v", p.Update, len(heldOut), training != nil, trained)
			return nil
		},
		Trained:    func(updates int) { note("trained %d", updates) },
		Explaining: func(level int) { note("explaining %d", level) },
		Explained:  func(level int, _ task.Explanation) { note("explained %d", level) },
		FinalEvaluated: func(heldOut, training, transfer []EvalResult) {
			note("final: %d levels", len(heldOut))
		},
		Enumerating: func(string) { note("enumerating") },
		Enumerated:  func([]task.LevelTally, int) { note("enumerated") },
		Finished:    func(rep *Report) { note("finished %d", rep.Updates) },
	}
}

// TestDriveTellsItsReporter: Drive with a Reporter tells it of a short
// run's events in order (each update, the evaluations due, the loop's end,
// the explanations of each level, the final evaluation, the end) and writes
// nothing to its writer, the progress line or the metrics: the console is
// the reporter it replaced.
func TestDriveTellsItsReporter(t *testing.T) {
	cfg := driveConfig()
	cfg.Updates, cfg.EvalEvery, cfg.Explain = 4, 2, 1
	tr, _ := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	levels := len(tr.task.Levels())
	var events []string
	var out, progress, metrics bytes.Buffer
	evaluatedCalls := 0
	opt := Options{Reporter: recorder(&events), Progress: &progress, Metrics: &metrics,
		Evaluated: func(EvalPoint, bool) error { evaluatedCalls++; return nil }}
	rep, err := Drive(tr, &out, opt)
	require.NoError(t, err)

	want := []string{fmt.Sprintf("started 0 of %d", cfg.Updates)}
	for u := 1; u <= cfg.Updates; u++ {
		want = append(want, fmt.Sprintf("updated %d (stats of %d)", u, u))
		if u%cfg.EvalEvery == 0 {
			want = append(want, fmt.Sprintf("evaluated %d: %d levels, training split false, trained true", u, levels))
		}
	}
	want = append(want, fmt.Sprintf("trained %d", cfg.Updates))
	for s := range levels {
		want = append(want, fmt.Sprintf("explaining %d", s))
		for range cfg.Explain {
			want = append(want, fmt.Sprintf("explained %d", s))
		}
	}
	want = append(want, fmt.Sprintf("final: %d levels", levels), fmt.Sprintf("finished %d", rep.Updates))
	require.Equal(t, want, events)
	require.Len(t, rep.Evaluations, cfg.Updates/cfg.EvalEvery, "the report is the console's")
	require.Empty(t, out.String(), "nothing on the console writer")
	require.Empty(t, progress.String())
	require.Empty(t, metrics.String())
	require.Zero(t, evaluatedCalls, "Options.Evaluated is the console's")
}

// TestDriveWithoutReporterRendersTheConsole: the same run without a
// Reporter prints its lines, its metrics and its progress line.
func TestDriveWithoutReporterRendersTheConsole(t *testing.T) {
	cfg := driveConfig()
	cfg.Updates, cfg.EvalEvery = 4, 2
	tr, _ := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	var out, progress, metrics bytes.Buffer
	_, err := Drive(tr, &out, Options{Progress: &progress, Metrics: &metrics})
	require.NoError(t, err)
	require.Contains(t, out.String(), "Training…")
	require.Contains(t, out.String(), "update 4 (")
	require.Contains(t, progress.String(), "] update 4/4 ")
	require.Equal(t, cfg.Updates/cfg.EvalEvery, bytes.Count(metrics.Bytes(), []byte("\n")))
}

// TestConsoleMarksLevelsNotEvaluated: a level an evaluation played no
// episode of (Episodes 0: nothing of it in the split, as the tape's and the
// expr task's transfer sizes in the held-out one) reads "—" in the periodic
// line, in the progress line and in the final mean rewards, not a rate of 0
// that was never measured.
func TestConsoleMarksLevelsNotEvaluated(t *testing.T) {
	tr, _ := newFakeRun(driveConfig(), func(call, int) float64 { return 0.5 })
	var out, progress bytes.Buffer
	r := Console(tr, &out, Options{Progress: &progress})
	ev := []EvalResult{{Level: 0, Episodes: 10, SolveRate: 0.5, MeanReward: 0.75}, {Level: 1}}
	p := EvalPoint{Update: 5, Level: "0", MeanReward: []float64{0.75, 0}, SolveRate: []float64{0.5, 0}}
	require.NoError(t, r.Evaluated(p, ev, nil, true))
	r.Updated(6, 1, UpdateStats{})
	r.FinalEvaluated(ev, nil, nil)

	require.Contains(t, out.String(), " | greedy reward T0=0.750 T1=— | ")
	require.Contains(t, out.String(), " | solve rate T0=0.500 T1=— | loss ")
	require.Contains(t, out.String(), "Final greedy mean rewards → T0=0.750, T1=— (")
	require.Contains(t, progress.String(), "  solve rate T0=0.500 T1=—")
	require.NotContains(t, out.String()+progress.String(), "T1=0.000")
}

package trainer

import (
	"bytes"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// TestEvaluationLineSaysWhatItsNumbersAre: the line read "ep=04 … acc=…
// | eval T0=…", the seed's words: ep counted updates, acc and eval were
// mean rewards (above 1 with a bonus). It now names the update, the
// rewards and the solve rates, and the run's start explains them once.
func TestEvaluationLineSaysWhatItsNumbersAre(t *testing.T) {
	cfg := driveConfig()
	cfg.Updates, cfg.EvalEvery, cfg.StopAt = 4, 2, 0
	tr, _ := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	var out bytes.Buffer
	_, err := Drive(tr, &out, Options{})
	require.NoError(t, err)
	s := out.String()
	require.NotContains(t, s, "ep=")
	require.NotContains(t, s, "acc=")
	require.Regexp(t, `(?m)^update 4 \(levels? [0-9,]+\): train reward -?[0-9.]+ \| greedy reward T0=[0-9.]+ .*\| solve rate T0=0\.500 .*\| loss -?[0-9.]+$`, s)
	legend := strings.Index(s, "the solve rate (the fraction")
	require.Positive(t, legend, "the legend: %s", s)
	require.Less(t, legend, strings.Index(s, "update 2 "), "the legend comes before the first evaluation line")
	require.Equal(t, 1, strings.Count(s, "the solve rate (the fraction"), "once")
	require.Contains(t, s, "params sha256 ")
	require.Contains(t, s, "(the trained weights' fingerprint")
}

// TestExplanationPrintsTheProgramUpToItsAnswer: a sample printed its whole
// budget, [ANS] after [ANS] after the answer (the tape's a hundred tokens
// and more); it now stops at the answer and says how many were left.
func TestExplanationPrintsTheProgramUpToItsAnswer(t *testing.T) {
	ex := task.Explanation{Name: "level 0", Context: []int32{3, 7}, Target: "21",
		Tokens: []string{"[MUL]", "[ANS]", "[ANS]", "[ANS]", "[ANS]"},
		Trace:  []task.Step{{Token: "[MUL]", State: "last=21"}, {Token: "[ANS]", State: "last=21"}},
		Reward: 1.05, Correct: true}
	got := formatExplanation(ex)
	require.Contains(t, got, "actions [MUL] [ANS] (3 more to the budget, unread) reward 1.05 correct")
	require.NotContains(t, got, "[rest ignored]")

	ex.Trace = append(ex.Trace, task.Step{Token: "[ANS]"}, task.Step{Token: "[ANS]"}, task.Step{Token: "[ANS]"})
	require.Contains(t, formatExplanation(ex), "actions [MUL] [ANS] [ANS] [ANS] [ANS] reward 1.05 correct", "a program that used its budget")
}

// TestConfirmationShowsUnplayedLevelsAsNotPlayed: a level the split has no
// instance of read "T4=0.000 (≥0.0000)", beside "T4=—" in the final lines.
func TestConfirmationShowsUnplayedLevelsAsNotPlayed(t *testing.T) {
	cfg := driveConfig()
	tr, _ := newFakeRun(cfg, func(call, int) float64 { return 1 })
	c := tr.cur
	ev := []EvalResult{{Episodes: 1000, SolveRate: 1}, {Episodes: 1000, SolveRate: 1}, {Episodes: 0}}
	cf := c.confirm(10, "training", ev, nil)
	require.Equal(t, []int{2}, cf.Unplayed)
	line := formatConfirmation(cf, 0.99)
	require.Contains(t, line, "T2=—")
	require.NotContains(t, line, "T2=0.000")
}

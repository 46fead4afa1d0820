package trainer

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
)

// stopConfig is the default recipe's stop rule (evaluations of 200 episodes
// every 20 updates, stop at 0.99) on a short run.
func stopConfig() Config {
	cfg := DefaultRecipe()
	cfg.Updates, cfg.Explain = 200, 0
	return cfg
}

// isConfirmation tells a confirming evaluation by its round
// (enginekit.ConfirmRound: bit 31 set, below the final and explanation
// rounds).
func isConfirmation(c call) bool {
	return c.round&(1<<31) != 0 && c.round < enginekit.FinalRound
}

// TestPeriodicEvaluationsAloneDoNotStop: 198 of 200 on every level in every
// evaluation used to stop the run after two of them; a confirmation that
// finds 0.985 (15 failures in 1000) must keep it going to the last update.
func TestPeriodicEvaluationsAloneDoNotStop(t *testing.T) {
	tr, _ := newFakeRun(stopConfig(), func(c call, _ int) float64 {
		if isConfirmation(c) {
			return 0.985
		}
		return 0.99
	})
	var out bytes.Buffer
	rep, err := Drive(tr, &out, Options{})
	require.NoError(t, err)
	require.Equal(t, 200, rep.Updates, "the run must not stop on 200-episode evidence")
	require.Len(t, rep.Confirmations, 10, "every evaluation at 0.99 is confirmed")
	for _, cf := range rep.Confirmations {
		require.False(t, cf.Solved)
		require.InDelta(t, 0.985, cf.SolveRate[0], 1e-3) // whole episodes of 1000, 1500, …
	}
	require.Contains(t, out.String(), "not confirmed: training continues")
	require.NotContains(t, out.String(), "stopping after")
}

// TestConfirmationFailsThenPasses: the first confirmation (3 failures in
// 1000: bound 0.9895) fails and training continues, the second (2 failures:
// bound 0.9911) stops the run at its update.
func TestConfirmationFailsThenPasses(t *testing.T) {
	confirmations := 0
	tr, _ := newFakeRun(stopConfig(), func(c call, level int) float64 {
		switch {
		case c.round == enginekit.FinalRound:
			return 1
		case isConfirmation(c) && level == 0:
			confirmations++ // counted once per confirmation
			fallthrough
		case isConfirmation(c):
			if confirmations == 1 {
				return 0.997
			}
			return 0.998
		case c.round < 60:
			return 0.5
		}
		return 1
	})
	var out bytes.Buffer
	rep, err := Drive(tr, &out, Options{})
	require.NoError(t, err)
	require.Equal(t, 80, rep.Updates, "nominated at 60 (fails) and 80 (passes)")
	require.Len(t, rep.Confirmations, 2)
	require.Equal(t, 60, rep.Confirmations[0].Update)
	require.False(t, rep.Confirmations[0].Solved)
	require.Less(t, rep.Confirmations[0].LowerBound[0], 0.99)
	require.True(t, rep.Confirmations[1].Solved)
	require.GreaterOrEqual(t, rep.Confirmations[1].LowerBound[0], 0.99)
	require.Nil(t, rep.Evaluations[1].Confirmation, "update 40 was not nominated")
	require.Equal(t, &rep.Confirmations[1], rep.Evaluations[3].Confirmation)
	require.Contains(t, out.String(), "confirmation 2 on 1500 episodes per level")
	require.Contains(t, out.String(), "solved at ≥ 0.990: stopping after update 80")
}

// TestConfirmationIgnoresUntrainedLevels: a level the run does not train
// may fail its confirmation without keeping the run going.
func TestConfirmationIgnoresUntrainedLevels(t *testing.T) {
	cfg := stopConfig()
	cfg.TrainLevels = []int{0, 1}
	tr, _ := newFakeRun(cfg, func(c call, level int) float64 {
		if level == 2 {
			return 0.1
		}
		return 1
	})
	rep, err := Drive(tr, &bytes.Buffer{}, Options{})
	require.NoError(t, err)
	require.Equal(t, 20, rep.Updates)
	require.True(t, rep.Confirmations[0].Solved)
}

// TestStopAtOneNeedsEveryEpisode: no finite sample's lower bound reaches 1,
// so at stop_at 1 only a confirmation without a failure stops the run.
func TestStopAtOneNeedsEveryEpisode(t *testing.T) {
	cfg := stopConfig()
	cfg.StopAt = 1
	c := newCurriculum(cfg, 3)
	perfect := []EvalResult{{Episodes: 1000, SolveRate: 1}, {Episodes: 1000, SolveRate: 1}, {Episodes: 1000, SolveRate: 1}}
	c.observe(perfect)
	require.True(t, c.nominated())
	one := append([]EvalResult(nil), perfect...)
	one[1].SolveRate = 0.999
	require.False(t, c.confirm(20, "", one, nil).Solved)
	require.False(t, c.isSolved())
	require.True(t, c.confirm(20, "", perfect, nil).Solved)
	require.True(t, c.isSolved())
	require.Less(t, c.confirm(20, "", perfect, nil).LowerBound[0], 1.0)
}

// TestStopAtZeroNeverConfirms: stop_at 0 means never stop, and never spend
// a confirmation.
func TestStopAtZeroNeverConfirms(t *testing.T) {
	cfg := stopConfig()
	cfg.StopAt = 0
	tr, _ := newFakeRun(cfg, func(call, int) float64 { return 1 })
	rep, err := Drive(tr, &bytes.Buffer{}, Options{})
	require.NoError(t, err)
	require.Equal(t, 200, rep.Updates)
	require.Empty(t, rep.Confirmations)
}

// TestConfirmationRoundsAreTheirOwn: every evaluation of a run plays its own
// round of the evaluation stream: no confirmation shares a round with a
// periodic evaluation, the final one, the explanations or another
// confirmation, even at the largest update number.
func TestConfirmationRoundsAreTheirOwn(t *testing.T) {
	cfg := stopConfig()
	cfg.Updates = 400
	tr, e := newFakeRun(cfg, func(c call, _ int) float64 {
		if isConfirmation(c) {
			return 0.9
		}
		return 1
	})
	_, err := Drive(tr, &bytes.Buffer{}, Options{})
	require.NoError(t, err)
	seen := map[uint32]int{}
	confirms := 0
	for _, c := range e.calls {
		if c.round == enginekit.FinalRound {
			continue // the final evaluation: held-out and training split, one round
		}
		seen[c.round]++
		require.Equalf(t, 1, seen[c.round], "round %#x played twice", c.round)
		if isConfirmation(c) {
			confirms++
		}
	}
	require.Equal(t, 20, confirms)
	require.Len(t, seen, 40, "20 periodic evaluations and 20 confirmations")
	for _, u := range []int{0, 1, 2, MaxUpdates} {
		r := enginekit.ConfirmRound(u)
		require.NotEqual(t, uint32(enginekit.FinalRound), r)
		require.NotEqual(t, uint32(enginekit.ExplainRound), r)
		require.Greater(t, r, uint32(MaxUpdates), "above every periodic round")
		require.NotEqual(t, enginekit.ConfirmRound(u+1), r)
	}
}

// TestSubsetsBlockAConfirmation: a confirmation whose sampled episodes are
// all correct does not stop a run while a trained level's training subset
// is below stop_at (the ties of abs(a*b-c*d) that 1000 samples hardly
// hold); an untrained level's subsets, or an empty subset, do not count.
func TestSubsetsBlockAConfirmation(t *testing.T) {
	cfg := stopConfig()
	c := newCurriculum(cfg, 3)
	perfect := func() []EvalResult { // every episode of the next confirmation right
		n := c.nextConfirmTest().Episodes
		return []EvalResult{{Episodes: n, SolveRate: 1}, {Episodes: n, SolveRate: 1}, {Episodes: n, SolveRate: 1}}
	}
	tie := func(solved, n int) []task.Tally {
		return []task.Tally{{Name: "tie", N: n, Solved: solved}, {Name: "zero", N: 0}}
	}
	subsets := [][]task.Tally{tie(416, 416), tie(400, 416), tie(416, 416)}
	cf := c.confirm(20, "", perfect(), subsets)
	require.False(t, cf.Solved, "a tie subset at 0.96 must block the stop")
	require.Contains(t, formatConfirmation(cf, cfg.StopAt), "T1 tie 400/416")
	subsets[1] = tie(413, 416) // 0.9928
	require.True(t, c.confirm(20, "", perfect(), subsets).Solved)
	subsets[1] = nil // a level not listed
	require.True(t, c.confirm(20, "", perfect(), subsets).Solved)
}

// TestConfirmationListsTrainingSubsets: a listing task's confirmations carry the training subsets, and a subset the engine fails
// does not stop.
func TestConfirmationListsTrainingSubsets(t *testing.T) {
	e := &echoEngine{fakeEngine: fakeEngine{steps: 2, rate: func(call, int) float64 { return 1 }, levels: 1}}
	cfg := stopConfig()
	cfg.Steps, cfg.TrainLevels = 2, []int{0}
	tr := &Trainer{task: echoTask{}, cfg: cfg, e: e, cur: newCurriculum(cfg, 1)}
	sub, err := trainingSubsets(tr, []int{0})
	require.NoError(t, err)
	// Training digits 3..9: odd 3, 5, 7, 9 (7 is failed), zero none.
	require.Equal(t, [][]task.Tally{{{Name: "odd", N: 4, Solved: 3}, {Name: "zero", N: 0}}}, sub)
	require.False(t, tr.cur.confirm(20, "", []EvalResult{{Episodes: 1000, SolveRate: 1}}, sub).Solved)
}

// TestStopFromDelaysTheStop: every evaluation solves every level, but none
// before StopFrom may nominate the run; the first at or after it does, and
// its confirmation stops the run there.
func TestStopFromDelaysTheStop(t *testing.T) {
	cfg := stopConfig()
	cfg.StopFrom = 90
	tr, _ := newFakeRun(cfg, func(call, int) float64 { return 1 })
	rep, err := Drive(tr, &bytes.Buffer{}, Options{})
	require.NoError(t, err)
	require.Equal(t, 100, rep.Updates, "the first evaluation at or after update 90")
	require.Len(t, rep.Confirmations, 1)
	require.Equal(t, 100, rep.Confirmations[0].Update)
	require.True(t, rep.Confirmations[0].Solved)
	for _, p := range rep.Evaluations[:4] {
		require.Nil(t, p.Confirmation, "update %d is before StopFrom", p.Update)
	}
}

// TestTapeStopsOnlyAtTheEntropyFloor: the tape task's default recipe may
// stop only once the entropy bonus has decayed to its floor; calc's and
// expr's may stop at any evaluation, as before.
func TestTapeStopsOnlyAtTheEntropyFloor(t *testing.T) {
	c := DefaultRecipe()
	c.Task = "tape"
	c, err := WithTask(c)
	require.NoError(t, err)
	require.Positive(t, c.StopFrom)
	require.Equal(t, c.EntropyUpdates, c.StopFrom)
	require.InDelta(t, c.EntropyFinal, c.EntropyAt(c.StopFrom), 1e-12)
	for _, name := range []string{"calc", "expr"} {
		c := DefaultRecipe()
		c.Task = name
		c, err := WithTask(c)
		require.NoError(t, err)
		require.Zero(t, c.StopFrom, name)
	}
}

package task

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// closePick is pick whose game learns that its budget ended and pays 0.25
// then (BudgetEnder), counting how often it was told.
type closePick struct{ pick }

func (closePick) NewGame() Game { return &closeGame{} }

type closeGame struct {
	pickGame
	told int
}

func (g *closeGame) EndBudget() float64 { g.told++; return 0.25 }

// TestGameEnvTruncation: a game's own done is terminated, the budget's end
// without it truncated (and sticky after); a caller that passes no
// Truncated buffer is served as before.
func TestGameEnvTruncation(t *testing.T) {
	e := NewEnv(pick{}, 3)
	require.True(t, ReportsTruncation(e))
	// row 0 answers at its last token: terminated; row 1 answers at once; row 2 never.
	ins := []Instance{{Budget: 3, Data: [DataWords]int64{6}}, {Budget: 3, Data: [DataWords]int64{2}}, {Budget: 3, Data: [DataWords]int64{5}}}
	for r := range ins {
		e.Reset(r, &ins[r])
	}
	obs, reward, done, trunc := make([]int32, 3), make([]float64, 3), make([]bool, 3), make([]bool, 3)
	out := Transition{Obs: obs, Reward: reward, Done: done, Truncated: trunc}
	e.Step([]int32{0, 2, 0}, out)
	require.Equal(t, []bool{false, true, false}, done)
	require.Equal(t, []bool{false, false, false}, trunc)
	e.Step([]int32{0, 0, 0}, out)
	require.Equal(t, []bool{false, false, false}, trunc)
	e.Step([]int32{6, 0, 0}, out)
	require.Equal(t, []bool{true, true, true}, done)
	require.Equal(t, []bool{false, false, true}, trunc, "only row 2 was cut by its budget")
	e.Step([]int32{0, 0, 0}, out)
	require.Equal(t, []bool{false, false, true}, trunc, "the flag stays after the end")

	for r := range ins {
		e.Reset(r, &ins[r])
	}
	out.Truncated = nil
	require.NotPanics(t, func() { e.Step([]int32{0, 0, 0}, out) })
}

// TestScoreEnvTruncation: a Scorer's episode that answers is terminated,
// one that runs out of budget truncated.
func TestScoreEnvTruncation(t *testing.T) {
	e := newScoreEnv(scoredPick{}, 2)
	require.True(t, ReportsTruncation(e))
	ins := []Instance{{Budget: 2}, {Budget: 2}}
	for r := range ins {
		e.Reset(r, &ins[r])
	}
	done, trunc := make([]bool, 2), make([]bool, 2)
	out := Transition{Obs: make([]int32, 2), Reward: make([]float64, 2), Done: done, Truncated: trunc}
	e.Step([]int32{1, 0}, out)
	require.Equal(t, []bool{true, false}, done)
	e.Step([]int32{0, 0}, out)
	require.Equal(t, []bool{true, true}, done)
	require.Equal(t, []bool{false, true}, trunc)
}

// scoredPick is a Scorer whose answer token is 1.
type scoredPick struct{ pick }

func (scoredPick) Answer() int32                        { return 1 }
func (scoredPick) Score(_ *Instance, p []int32) Outcome { return Outcome{Reward: float64(len(p))} }
func (scoredPick) NewGame() Game                        { panic("scored, not stepped") }

// TestInferTruncated: for an Env that does not report truncation, a row
// done at its budget's last token is truncated, one done earlier is not.
func TestInferTruncated(t *testing.T) {
	ins := []Instance{{Budget: 2}, {Budget: 4}, {Budget: 2}}
	out := Transition{Done: []bool{true, true, false}, Truncated: []bool{true, true, true}}
	InferTruncated(out, 1, ins)
	require.Equal(t, []bool{true, false, false}, out.Truncated)
	InferTruncated(out, 0, ins)
	require.Equal(t, []bool{false, false, false}, out.Truncated)
}

// TestBudgetEnder: a game told that its budget ended pays at that step,
// exactly once, and not when it ended itself at the last token; Score
// (stepping the same Env) counts it.
func TestBudgetEnder(t *testing.T) {
	e := newGameEnv(closePick{}, 2)
	ins := []Instance{{Budget: 2, Data: [DataWords]int64{7}}, {Budget: 2, Data: [DataWords]int64{3}}}
	for r := range ins {
		e.Reset(r, &ins[r])
	}
	reward := make([]float64, 2)
	out := Transition{Obs: make([]int32, 2), Reward: reward, Done: make([]bool, 2)}
	e.Step([]int32{0, 0}, out)
	require.Equal(t, []float64{0, 0}, reward)
	e.Step([]int32{0, 3}, out)
	require.Equal(t, []float64{0.25, 1}, reward, "row 0 is paid at its budget's end, row 1 ended itself")
	e.Step([]int32{0, 0}, out)
	require.Equal(t, []float64{0, 0}, reward, "nothing after the end")
	require.Equal(t, 1, e.eps[0].(*closeGame).told)
	require.Equal(t, 0, e.eps[1].(*closeGame).told)

	in := Instance{Budget: 2, Data: [DataWords]int64{9}}
	require.Equal(t, Outcome{Reward: 0.25}, Score(closePick{}, &in, []int32{0, 0}))
	require.Equal(t, Outcome{Reward: 1, Correct: true}, Score(closePick{}, &in, []int32{0, 9}))
}

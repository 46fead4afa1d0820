package task

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// oddPick is pick whose games allow only the odd tokens (and never CTX).
type oddPick struct{ pick }

func (oddPick) NewGame() Game { return &oddPickGame{} }

type oddPickGame struct{ pickGame }

func (g *oddPickGame) Legal(legal []bool) {
	for a := range legal {
		legal[a] = a%2 == 1 && a != CTX
	}
}

// A Stepwise task whose games are LegalGames has a Masker Env: each live
// row's mask is its game's, an ended row's allows everything; a task whose
// games are not has none. Score and Explain end a program at a token the
// mask refuses, wrong, and say so.
func TestStepwiseMask(t *testing.T) {
	require.False(t, Masks(pick{}))
	require.True(t, Masks(oddPick{}))
	e := NewEnv(oddPick{}, 2).(Masker)
	ins := []Instance{{Budget: 3, Data: [DataWords]int64{3}}, {Budget: 3, Data: [DataWords]int64{5}}}
	for r := range ins {
		e.Reset(r, &ins[r])
	}
	legal := make([]bool, oddPick{}.Vocab())
	e.Legal(0, legal)
	for a, ok := range legal {
		require.Equal(t, a%2 == 1 && a != CTX, ok, "token %d", a)
	}
	out := Transition{Obs: make([]int32, 2), Reward: make([]float64, 2), Done: make([]bool, 2)}
	e.Step([]int32{3, 1}, out) // row 0 wins and ends
	require.Equal(t, []bool{true, false}, out.Done)
	e.Legal(0, legal)
	for a, ok := range legal {
		require.True(t, ok, "an ended row allows every token: %d", a)
	}
	require.Zero(t, testing.AllocsPerRun(10, func() { e.Legal(1, legal) }))

	in := &Instance{Budget: 3, Data: [DataWords]int64{4}}
	require.Equal(t, Outcome{Reward: 1, Correct: true}, Score(pick{}, in, []int32{4}), "without a mask, 4 wins")
	require.Equal(t, Outcome{}, Score(oddPick{}, in, []int32{4}), "the mask refuses 4: the episode ends, wrong")
	ex := Explain(oddPick{}, in, []int32{1, 4})
	require.False(t, ex.Correct)
	require.Len(t, ex.Trace, 2)
	require.Contains(t, ex.Trace[1].State, "illegal")
	in.Data[0] = 5
	require.Equal(t, Outcome{Reward: 1, Correct: true}, Score(oddPick{}, in, []int32{1, 5}), "legal tokens play as without a mask")

	require.Error(t, CheckLegal(oddPick{}, make([]bool, 4)))
	require.NoError(t, CheckLegal(oddPick{}, []bool{false, true}))
}

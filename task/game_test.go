package task

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// pick is a task written as a step function: pick the hidden token. A
// token observes its parity, the hidden one pays 1 and ends the episode.
type pick struct{}

func (pick) Name() string                     { return "pick" }
func (pick) Vocab() int                       { return CTX + 1 }
func (pick) TokenName(tok int32) string       { return fmt.Sprint(tok) }
func (pick) NotActions() []int32              { return []int32{CTX} }
func (pick) Answer() int32                    { return NoAnswer }
func (pick) HoldsOut() bool                   { return false }
func (pick) Levels() []Level                  { return []Level{{Name: "pick", Budget: 3, Shortest: 1}} }
func (pick) Observations() int                { return 3 }
func (pick) ObservationName(obs int32) string { return []string{"even", "odd", "start"}[obs] }
func (pick) NewGame() Game                    { return &pickGame{} }

func (pick) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ Split) Instance {
	return Instance{Level: int32(level), Budget: 3, Data: [DataWords]int64{int64(key.Block(round, episode, 0, purpose)[0] % 10)}}
}

type pickGame struct {
	hidden int64
	won    bool
}

func (g *pickGame) Reset(in *Instance) int32 { g.hidden, g.won = in.Data[0], false; return 2 }
func (g *pickGame) Correct() bool            { return g.won }

func (g *pickGame) Step(tok int32) (int32, float64, bool) {
	g.won = int64(tok) == g.hidden
	if g.won {
		return tok % 2, 1, true
	}
	return tok % 2, 0, false
}

// TestGameEnv: NewEnv steps a Stepwise task's games, one per row: a row
// ends when its game says so or at its budget's last token, and after its
// end it earns 0, stays done and keeps its last observation; Reset and Step
// allocate nothing.
func TestGameEnv(t *testing.T) {
	var tk Task = pick{}
	require.NoError(t, Validate(tk))
	e := NewEnv(tk, 3)
	require.Equal(t, 3, e.Observations())
	ins := []Instance{{Budget: 3, Data: [DataWords]int64{1}}, {Budget: 3, Data: [DataWords]int64{2}}, {Budget: 3, Data: [DataWords]int64{5}}}
	for r := range ins {
		require.EqualValues(t, 2, e.Reset(r, &ins[r]))
	}
	obs, reward, done := make([]int32, 3), make([]float64, 3), make([]bool, 3)
	out := Transition{Obs: obs, Reward: reward, Done: done}
	e.Step([]int32{0, 2, 3}, out)
	require.Equal(t, []int32{0, 0, 1}, obs)
	require.Equal(t, []float64{0, 1, 0}, reward)
	require.Equal(t, []bool{false, true, false}, done)
	e.Step([]int32{1, 3, 4}, out)
	require.Equal(t, []int32{1, 0, 0}, obs, "row 1 keeps its last observation")
	require.Equal(t, []float64{1, 0, 0}, reward, "row 1 earns nothing after its end")
	require.Equal(t, []bool{true, true, false}, done)
	e.Step([]int32{0, 2, 6}, out)
	require.Equal(t, []float64{0, 0, 0}, reward)
	require.Equal(t, []bool{true, true, true}, done, "row 2 ends at its budget")
	require.Equal(t, []bool{true, true, false}, []bool{e.Correct(0), e.Correct(1), e.Correct(2)})

	acts := []int32{7, 8, 9}
	require.Zero(t, testing.AllocsPerRun(100, func() {
		for r := range ins {
			e.Reset(r, &ins[r])
		}
		e.Step(acts, out)
	}))
}

// TestDerivedScoreExplain: a task without its own Score and Explain gets
// them by stepping its games: the return up to the episode's end, Correct
// as the game says, and a trace of the tokens run with their observations.
func TestDerivedScoreExplain(t *testing.T) {
	var tk Task = pick{}
	in := Instance{Budget: 3, Data: [DataWords]int64{4}}
	require.Equal(t, Outcome{Reward: 1, Correct: true}, Score(tk, &in, []int32{3, 4, 5}))
	require.Equal(t, Outcome{}, Score(tk, &in, []int32{3, 5, 6, 4}), "the budget ends the episode before the fourth token")
	ex := Explain(tk, &in, []int32{3, 4, 5})
	require.Equal(t, []string{"3", "4", "5"}, ex.Tokens)
	require.Equal(t, []Step{{Token: "3", State: "obs odd · reward 0"}, {Token: "4", State: "obs even · reward 1"}}, ex.Trace)
	require.Equal(t, "pick", ex.Name)
	require.True(t, ex.Correct)
	require.Equal(t, 1.0, ex.Reward)
	require.Zero(t, ex.Target, "the target is the task's own business, which stepping cannot see")
}

// TestValidateRefusesUnplayable: a task that neither steps (Stepwise,
// Stepper) nor scores (Scorer) its programs is refused, naming it, and
// NewEnv panics with the same ViolationError rather than stepping nothing.
func TestValidateRefusesUnplayable(t *testing.T) {
	type bare struct{ Task }
	tk := bare{pick{}}
	err := Validate(tk)
	require.ErrorContains(t, err, "the pick task can neither score nor step a program")
	var v *ViolationError
	require.ErrorAs(t, err, &v)
	require.PanicsWithError(t, err.Error(), func() { NewEnv(tk, 1) })
}

// TestDerivedExplanationRoundsRewards: a step's reward printed as
// "reward 0.3333333333333333"; three decimals say it.
func TestDerivedExplanationRoundsRewards(t *testing.T) {
	require.Equal(t, "reward 0.333", rewardWords(1.0/3))
	require.Equal(t, "reward 1", rewardWords(1))
	require.Equal(t, "reward 0", rewardWords(0))
	require.Equal(t, "reward -0.05", rewardWords(-0.05))
}

// sizedPick is pick whose games declare bytes of their own.
type sizedPick struct {
	pick
	bytes int
}

func (s sizedPick) GameBytes() int { return s.bytes }

// TestGameBytes: GameBytes is a GameSized task's bound and 0 for any other;
// a negative bound is refused, naming the task.
func TestGameBytes(t *testing.T) {
	require.Zero(t, GameBytes(pick{}))
	require.Equal(t, 4096.0, GameBytes(sizedPick{bytes: 4096}))
	require.NoError(t, Validate(sizedPick{bytes: 4096}))
	err := Validate(sizedPick{bytes: -1})
	var v *ViolationError
	require.ErrorAs(t, err, &v)
	require.ErrorContains(t, err, "the pick task's games hold -1 bytes (GameBytes)")
}

package builtin

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// TestAnswerOnTheLastTokenIsTerminated: an episode that answers with its
// budget's last token was ended by the game, not cut by the budget, and one
// that never answers was cut (Transition.Truncated, which PPO's GAE reads:
// a truncated episode bootstraps from its last value). Every built-in task
// with an answer token reports it itself, whatever its spec (observing or
// not), rather than leaving the engine to infer it from the step count,
// which calls an answer on the last token truncated.
func TestAnswerOnTheLastTokenIsTerminated(t *testing.T) {
	for _, c := range []struct{ name, spec string }{
		{"seed", ""}, {"calc", ""}, {"calc", "observe=on"}, {"expr", ""}, {"tape", ""}, {"tape", "branching=on"},
	} {
		t.Run(c.name+"/"+c.spec, func(t *testing.T) {
			tk, err := task.Open(c.name, c.spec)
			require.NoError(t, err)
			ans := tk.Answer()
			require.NotEqual(t, task.NoAnswer, ans)
			filler := fillerToken(t, tk)
			for level := range tk.Levels() {
				in := tk.Draw(rng.Key{1, 2}, 0, 0, rng.PurposeTask, level, task.Training)
				for _, answer := range []bool{true, false} {
					env := task.NewEnv(tk, 1)
					require.True(t, task.ReportsTruncation(env), "%s reports its truncation", tk.Name())
					env.Reset(0, &in)
					out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1), Truncated: make([]bool, 1)}
					for s := range int(in.Budget) {
						a := filler
						if answer && s == int(in.Budget)-1 {
							a = ans
						}
						env.Step([]int32{a}, out)
						if s < int(in.Budget)-1 {
							require.False(t, out.Done[0], "level %d: the filler %s ended the episode at step %d", level, tk.TokenName(filler), s)
						}
					}
					require.True(t, out.Done[0], "level %d: the budget ended the episode", level)
					require.Equal(t, !answer, out.Truncated[0], fmt.Sprintf("level %d, answered on the last token: %v", level, answer))
				}
			}
		})
	}
}

// fillerToken is an action that is not the answer and does not end an
// episode: the first such token of the vocabulary.
func fillerToken(t *testing.T, tk task.Task) int32 {
	for tok := int32(0); tok < int32(tk.Vocab()); tok++ {
		if tok != tk.Answer() && !slices.Contains(tk.NotActions(), tok) && tok != task.ContextEnd(tk) {
			return tok
		}
	}
	t.Fatalf("task %s has no action but its answer", tk.Name())
	return 0
}

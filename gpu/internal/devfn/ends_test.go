//go:build cgo

package devfn

import (
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

// envEnd is the step (from 0) at which the CPU engine's Env of tk says the
// episode of in playing prog is done, or -1 if it never does.
func envEnd(tk task.Task, in *task.Instance, prog []int32) int {
	e := task.NewEnv(tk, 1)
	e.Reset(0, in)
	obs, reward, done := make([]int32, 1), make([]float64, 1), make([]bool, 1)
	for t, a := range prog {
		e.Step([]int32{a}, task.Transition{Obs: obs, Reward: reward, Done: done})
		if done[0] {
			return t
		}
	}
	return -1
}

// scoreEnd is the step at which simdrl_score_ends first says the episode
// ends, asked as the rollout asks it (once a step until it says so), or -1.
func scoreEnd(scorer int, rec, ops, prog []int32) int {
	for t, a := range prog {
		if ScoreEnds(scorer, rec, ops, a, t+1) {
			return t
		}
	}
	return -1
}

// TestScoreEndsIsTheCPUsEnd: simdrl_score_ends, by which a rollout that
// scores its programs after the loop stops once its episodes have ended,
// ends each episode at the step where the CPU engine's Env (the seed task's
// and calc's) says it is done, and never where the Env plays on: on random
// programs with and without answers, tokens outside the vocabulary, and
// programs shorter and longer than the episode's limit (seed.MaxSteps, the
// instance's budget).
func TestScoreEndsIsTheCPUsEnd(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	key := rng.NewKey(5)
	seen := map[string]int{}
	check := func(name string, scorer int, tk task.Task, ops []int32, vocab, answer int32, limit int) {
		for lv := range tk.Levels() {
			for i := 0; i < 3000; i++ {
				in := tk.Draw(key, 1, uint32(i), rng.PurposeTask, lv, task.Split(i%2))
				var rec [RecordWords]int32
				record.Pack(rec[:], &in)
				n := limit
				if n <= 0 {
					n = int(in.Budget)
				}
				prog := make([]int32, r.IntN(n+4))
				for s := range prog {
					prog[s] = r.Int32N(vocab+3) - 1
					if i%3 == 0 && prog[s] == answer { // no answer: the limit ends it
						prog[s] = 0
					}
				}
				want, got := envEnd(tk, &in, prog), scoreEnd(scorer, rec[:], ops, prog)
				require.Equal(t, want, got, "%s level %d instance %d program %v", name, lv, i, prog)
				switch {
				case want < 0:
					seen[name+" plays on"]++
				case prog[want] == answer:
					seen[name+" answers"]++
				default:
					seen[name+" limit"]++
				}
			}
		}
	}
	st := seedtask.Seed()
	check("seed", ScoreSeed, st, nil, seed.Vocab, st.Answer(), seed.MaxSteps)
	ct, err := calctask.Calc(calc.DefaultLevelsSpec, 0.3)
	require.NoError(t, err)
	check("calc", ScoreCalc, ct, record.OpTable(calc.Ops[:]), calc.Vocab, ct.Answer(), 0)
	t.Log(seen)
	for _, name := range []string{"seed", "calc"} {
		for _, how := range []string{"plays on", "answers", "limit"} {
			require.Positive(t, seen[name+" "+how], "%s: some episode %s", name, how)
		}
	}
}

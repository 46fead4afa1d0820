package tasktest

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// ScoredOnly hides a task's own Env, so that NewEnv steps it by scoring.
type ScoredOnly struct{ task.Task }

// Score is the task's own score (task.Score), the only way a ScoredOnly is
// stepped.
func (s ScoredOnly) Score(in *task.Instance, program []int32) task.Outcome {
	return task.Score(s.Task, in, program)
}

// StepAll runs programs (rows×T, row-major) through e step by step and
// returns the per-step rewards and done flags (T×rows, step-major).
func StepAll(e task.Env, ins []task.Instance, programs []int32, T int) ([]float64, []bool) {
	n := len(ins)
	for r := range ins {
		e.Reset(r, &ins[r])
	}
	rewards, done := make([]float64, T*n), make([]bool, T*n)
	acts, obs := make([]int32, n), make([]int32, n)
	for t := 0; t < T; t++ {
		for r := range acts {
			acts[r] = programs[r*T+t]
		}
		e.Step(acts, task.Transition{Obs: obs, Reward: rewards[t*n : (t+1)*n], Done: done[t*n : (t+1)*n]})
		for _, o := range obs {
			if o != task.NoObservation {
				panic("an observation from a task that observes nothing")
			}
		}
	}
	return rewards, done
}

// RequireSteppingIsScoring checks that every row's return is its Score bit for bit, paid
// at one step, the first answer within the budget; done is set from the
// end of the episode (that answer, or the budget's last token) on; Correct
// is Score's.
func RequireSteppingIsScoring(t *testing.T, tk task.Task, e task.Env, ins []task.Instance, programs []int32, T int) {
	t.Helper()
	rewards, done := StepAll(e, ins, programs, T)
	n := len(ins)
	for r := range ins {
		prog := programs[r*T : (r+1)*T]
		want := task.Score(tk, &ins[r], prog)
		end := -1 // the step that ends the episode
		for s, a := range prog {
			if a == tk.Answer() || s == int(ins[r].Budget)-1 {
				end = s
				break
			}
		}
		ret := 0.0
		for s := 0; s < T; s++ {
			ret += rewards[s*n+r]
			if s != end || prog[s] != tk.Answer() {
				require.Zerof(t, rewards[s*n+r], "row %d step %d: reward off the answer step", r, s)
			}
			require.Equalf(t, end >= 0 && s >= end, done[s*n+r], "row %d step %d (program %v, budget %d)", r, s, prog, ins[r].Budget)
		}
		require.Equalf(t, math.Float64bits(want.Reward), math.Float64bits(ret), "row %d: program %v", r, prog)
		require.Equalf(t, want.Correct, e.Correct(r), "row %d: program %v", r, prog)
	}
}

// Programs draws rows random programs of T tokens over actions, then
// overwrites the first few with the shortest ones.
func Programs(key rng.Key, rows, T int, actions []int32, shortest [][]int32) []int32 {
	p := make([]int32, rows*T)
	for i := range p {
		p[i] = actions[key.Block(4, uint32(i), 0, rng.PurposeAction)[0]%uint32(len(actions))]
	}
	for r, s := range shortest {
		copy(p[r*T:(r+1)*T], s)
	}
	return p
}

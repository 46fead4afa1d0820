package task

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// scoredOnly hides a task's own Env, so that NewEnv steps it by scoring.
type scoredOnly struct{ Task }

// stepAll runs programs (rows×T, row-major) through e step by step and
// returns the per-step rewards and done flags (T×rows, step-major).
func stepAll(e Env, ins []Instance, programs []int32, T int) ([]float64, []bool) {
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
		e.Step(acts, Transition{Obs: obs, Reward: rewards[t*n : (t+1)*n], Done: done[t*n : (t+1)*n]})
		for _, o := range obs {
			if o != NoObservation {
				panic("an observation from a task that observes nothing")
			}
		}
	}
	return rewards, done
}

// requireSteppingIsScoring: every row's return is its Score bit for bit, paid
// at one step, the first answer within the budget; done is set from the
// end of the episode (that answer, or the budget's last token) on; Correct
// is Score's.
func requireSteppingIsScoring(t *testing.T, tk Task, e Env, ins []Instance, programs []int32, T int) {
	t.Helper()
	rewards, done := stepAll(e, ins, programs, T)
	n := len(ins)
	for r := range ins {
		prog := programs[r*T : (r+1)*T]
		want := tk.Score(&ins[r], prog)
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

// programs draws rows random programs of T tokens over actions, then
// overwrites the first few with the shortest ones.
func programs(key rng.Key, rows, T int, actions []int32, shortest [][]int32) []int32 {
	p := make([]int32, rows*T)
	for i := range p {
		p[i] = actions[key.Block(4, uint32(i), 0, rng.PurposeAction)[0]%uint32(len(actions))]
	}
	for r, s := range shortest {
		copy(p[r*T:(r+1)*T], s)
	}
	return p
}

func TestSeedSteppingIsScoring(t *testing.T) {
	st := Seed()
	key := rng.NewKey(5)
	all := make([]int32, seed.Vocab)
	for i := range all {
		all[i] = int32(i)
	}
	short := [][]int32{{seed.MUL, seed.ANS}, {seed.MUL, seed.ADD, seed.ANS}, {seed.MUL, seed.ADD, seed.SUB, seed.ANS}}
	for _, T := range []int{1, 6, seed.MaxSteps, 9} {
		for level := range st.Levels() {
			const rows = 2000
			ins := make([]Instance, rows)
			for r := range ins {
				ins[r] = st.Draw(key, uint32(T), uint32(r), rng.PurposeTask, level, Training)
			}
			progs := programs(key, rows, T, all, short[level:level+1])
			requireSteppingIsScoring(t, st, NewEnv(st, rows), ins, progs, T)
			requireSteppingIsScoring(t, st, NewEnv(scoredOnly{st}, rows), ins, progs, T)
		}
	}
}

func TestCalcSteppingIsScoring(t *testing.T) {
	ct, err := Calc("", 0.3)
	require.NoError(t, err)
	key := rng.NewKey(6)
	var acts []int32
	for tok := int32(0); tok < int32(ct.Vocab()); tok++ {
		if tok > CTX {
			acts = append(acts, tok)
		}
	}
	acts = append(acts, calc.ANS, calc.ANS) // answers often enough
	for lv, l := range calc.DefaultLevels() {
		for _, T := range []int{len(l.Shortest), l.Budget, l.Budget + 3} {
			const rows = 1500
			ins := make([]Instance, rows)
			for r := range ins {
				ins[r] = ct.Draw(key, uint32(T), uint32(r), rng.PurposeTask, lv, Split(r%2))
			}
			progs := programs(key, rows, T, acts, [][]int32{l.Shortest})
			requireSteppingIsScoring(t, ct, NewEnv(ct, rows), ins, progs, T)
			requireSteppingIsScoring(t, ct, NewEnv(scoredOnly{ct}, rows), ins, progs, T)
		}
	}
}

// TestStepCanFail: the comparison notices a reward paid at the wrong step.
func TestStepCanFail(t *testing.T) {
	st := Seed()
	in := st.Draw(rng.NewKey(1), 1, 1, rng.PurposeTask, 0, Training)
	in.Digits[0], in.Digits[1] = 2, 3 // a·b = 6 ≠ 0: MUL ANS earns something
	rewards, done := stepAll(NewEnv(st, 1), []Instance{in}, []int32{seed.MUL, seed.ANS, seed.ADD}, 3)
	require.Equal(t, []bool{false, true, true}, done)
	require.Zero(t, rewards[0])
	require.Greater(t, rewards[1], 0.0)
	require.Zero(t, rewards[2])
}

func TestStepAllocatesNothing(t *testing.T) {
	ct, err := Calc("a*b, a*b+c*d", 0.3)
	require.NoError(t, err)
	key := rng.NewKey(2)
	for _, tk := range []Task{Seed(), ct, scoredOnly{ct}} {
		const rows = 8
		e := NewEnv(tk, rows)
		require.Equal(t, rows, e.Rows())
		require.Zero(t, e.Observations())
		ins := make([]Instance, rows)
		for r := range ins {
			ins[r] = tk.Draw(key, 1, uint32(r), rng.PurposeTask, 1, Training)
		}
		acts, obs, rew, done := make([]int32, rows), make([]int32, rows), make([]float64, rows), make([]bool, rows)
		require.Zero(t, testing.AllocsPerRun(100, func() {
			for r := range ins {
				e.Reset(r, &ins[r])
			}
			for s := int32(0); s < 9; s++ {
				for r := range acts {
					acts[r] = (s*7 + int32(r)) % int32(tk.Vocab())
				}
				e.Step(acts, Transition{Obs: obs, Reward: rew, Done: done})
			}
		}))
	}
}

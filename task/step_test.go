package task_test

import (
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

func TestSeedSteppingIsScoring(t *testing.T) {
	st := seedtask.Seed()
	key := rng.NewKey(5)
	all := make([]int32, seed.Vocab)
	for i := range all {
		all[i] = int32(i)
	}
	short := [][]int32{{seed.MUL, seed.ANS}, {seed.MUL, seed.ADD, seed.ANS}, {seed.MUL, seed.ADD, seed.SUB, seed.ANS}}
	for _, T := range []int{1, 6, seed.MaxSteps, 9} {
		for level := range st.Levels() {
			const rows = 2000
			ins := make([]task.Instance, rows)
			for r := range ins {
				ins[r] = st.Draw(key, uint32(T), uint32(r), rng.PurposeTask, level, task.Training)
			}
			progs := tasktest.Programs(key, rows, T, all, short[level:level+1])
			tasktest.RequireSteppingIsScoring(t, st, task.NewEnv(st, rows), ins, progs, T)
			tasktest.RequireSteppingIsScoring(t, st, task.NewEnv(tasktest.ScoredOnly{Task: st}, rows), ins, progs, T)
		}
	}
}

func TestCalcSteppingIsScoring(t *testing.T) {
	ct, err := calctask.Calc("", 0.3)
	require.NoError(t, err)
	key := rng.NewKey(6)
	var acts []int32
	for tok := int32(0); tok < int32(ct.Vocab()); tok++ {
		if tok > task.CTX {
			acts = append(acts, tok)
		}
	}
	acts = append(acts, calc.ANS, calc.ANS) // answers often enough
	for lv, l := range calc.DefaultLevels() {
		for _, T := range []int{len(l.Shortest), l.Budget, l.Budget + 3} {
			const rows = 1500
			ins := make([]task.Instance, rows)
			for r := range ins {
				ins[r] = ct.Draw(key, uint32(T), uint32(r), rng.PurposeTask, lv, task.Split(r%2))
			}
			progs := tasktest.Programs(key, rows, T, acts, [][]int32{l.Shortest})
			tasktest.RequireSteppingIsScoring(t, ct, task.NewEnv(ct, rows), ins, progs, T)
			tasktest.RequireSteppingIsScoring(t, ct, task.NewEnv(tasktest.ScoredOnly{Task: ct}, rows), ins, progs, T)
		}
	}
}

// TestStepCanFail: the comparison notices a reward paid at the wrong step.
func TestStepCanFail(t *testing.T) {
	st := seedtask.Seed()
	in := st.Draw(rng.NewKey(1), 1, 1, rng.PurposeTask, 0, task.Training)
	o := interp.Get(in.Data[:])
	o.Digits[0], o.Digits[1] = 2, 3 // a·b = 6 ≠ 0: MUL ANS earns something
	o.Put(in.Data[:])
	rewards, done := tasktest.StepAll(task.NewEnv(st, 1), []task.Instance{in}, []int32{seed.MUL, seed.ANS, seed.ADD}, 3)
	require.Equal(t, []bool{false, true, true}, done)
	require.Zero(t, rewards[0])
	require.Greater(t, rewards[1], 0.0)
	require.Zero(t, rewards[2])
}

func TestStepAllocatesNothing(t *testing.T) {
	ct, err := calctask.Calc("a*b, a*b+c*d", 0.3)
	require.NoError(t, err)
	key := rng.NewKey(2)
	for _, tk := range []task.Task{seedtask.Seed(), ct, tasktest.ScoredOnly{Task: ct}} {
		const rows = 8
		e := task.NewEnv(tk, rows)
		require.Equal(t, rows, e.Rows())
		require.Zero(t, e.Observations())
		ins := make([]task.Instance, rows)
		for r := range ins {
			ins[r] = tk.Draw(key, 1, uint32(r), rng.PurposeTask, 1, task.Training)
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
				e.Step(acts, task.Transition{Obs: obs, Reward: rew, Done: done})
			}
		}))
	}
}

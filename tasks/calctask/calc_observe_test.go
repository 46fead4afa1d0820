package calctask

import (
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/internal/tasktest"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/internal/taskkit"
	"github.com/stretchr/testify/require"
)

func TestCalcSpecObserve(t *testing.T) {
	for _, s := range []CalcSpec{{Observe: ObserveOn}, {Levels: "max(a,b)+c, abs(a-b):6", Observe: ObserveOff, PartialCredit: 0.3}} {
		got, err := ParseCalcSpec(s.String())
		require.NoError(t, err, s.String())
		require.Equal(t, s, got, s.String())
	}
	require.Equal(t, "levels=max(a,b); observe=off", CalcSpec{Levels: "max(a,b)", Observe: ObserveOff}.String())
	got, err := ParseCalcSpec("observe=auto; levels=a*b")
	require.NoError(t, err)
	require.Equal(t, CalcSpec{Levels: "a*b"}, got)
	require.Equal(t, "levels=a*b", got.String(), "auto is the default: never written")
	_, err = ParseCalcSpec("observe=yes")
	var se *task.SpecError
	require.ErrorAs(t, err, &se)
	require.Equal(t, "observe", se.Key)
	require.EqualError(t, err, `observe: "yes" is not auto, on or off`)
	require.ErrorContains(t, CalcSpec{Observe: "maybe"}.Check(), `observe: "maybe" is not auto, on or off`)
	_, err = CalcOf(CalcSpec{Observe: "maybe"}, calc.ParseOptions{})
	require.ErrorContains(t, err, "observe")
}

// The machine and the observations follow the levels and the option; the
// open-loop task is today's exactly.
func TestCalcObserveDecidesTheMachine(t *testing.T) {
	cases := []struct {
		spec       string
		vocab, obs int
		kind       interp.Observation
		token19    string
	}{
		{"", calc.Vocab, 0, interp.ObserveNone, "[?]"},
		{"levels=a*b, a*b+c*d; observe=off", calc.Vocab, 0, interp.ObserveNone, "[?]"},
		{"observe=on", calc.BranchVocab, calc.NumObservations, interp.ObserveSigns, "[NEG]"},
		{"levels=" + calc.ObserveLevelsSpec, calc.BranchVocab, calc.NumObservations, interp.ObserveSigns, "[NEG]"},
		{"levels=a*b, max(a,b); observe=off", calc.BranchVocab, 0, interp.ObserveNone, "[NEG]"},
	}
	for _, c := range cases {
		tk, err := OpenCalc(c.spec)
		require.NoError(t, err, c.spec)
		ct := tk.(*calcTask)
		require.Equal(t, c.vocab, tk.Vocab(), c.spec)
		require.Len(t, ct.Ops(), c.vocab, c.spec)
		require.Equal(t, c.obs, task.Observations(tk), c.spec)
		require.Equal(t, c.obs, task.NewEnv(tk, 1).Observations(), c.spec)
		require.Equal(t, c.kind, ct.Observation(), c.spec)
		require.Equal(t, c.token19, tk.TokenName(19), c.spec)
	}
	def, err := Calc("", 0)
	require.NoError(t, err)
	require.Equal(t, calc.Ops[:], def.(task.Interpreted).Ops(), "the 19-token table, unchanged")
	tk, err := OpenCalc("levels=max(a,b); observe=off")
	require.NoError(t, err)
	require.Equal(t, "levels=max(a,b); partial_credit=0.3; observe=off", tk.(task.Tuned).DefaultTuning().Spec, "the tuning keeps the option")
	require.Equal(t, "v<0 v<m", tk.(task.Observer).ObservationName(0))
}

// The observing Env writes the machine's observation after every token (the
// final one after the end), Reset the start's; its rewards and Correct are
// Score's; it allocates nothing.
func TestCalcEnvObserves(t *testing.T) {
	tk, err := OpenCalc("levels=" + calc.ObserveLevelsSpec + "; partial_credit=0.3")
	require.NoError(t, err)
	ct := tk.(*calcTask)
	key := rng.NewKey(8)
	const rows = 64
	for lv := range ct.levels {
		l := &ct.levels[lv]
		e := task.NewEnv(tk, rows)
		ins := make([]task.Instance, rows)
		for r := range ins {
			ins[r] = tk.Draw(key, 1, uint32(r), rng.PurposeTask, lv, task.Split(r%2))
			require.Equal(t, int32(calc.StartObservation), e.Reset(r, &ins[r]))
		}
		// Each row follows the level's tree by the observations the Env writes.
		node := make([]int32, rows)
		obs, rew, done := make([]int32, rows), make([]float64, rows), make([]bool, rows)
		acts := make([]int32, rows)
		ret := make([]float64, rows)
		var written [][]int32
		for step := 0; step < l.Budget+2; step++ {
			for r := range acts {
				acts[r] = calc.ANS
				if node[r] >= 0 {
					acts[r] = l.Tree.Nodes[node[r]].Token
				}
			}
			e.Step(acts, task.Transition{Obs: obs, Reward: rew, Done: done})
			for r := range acts {
				ret[r] += rew[r]
				if node[r] >= 0 {
					node[r] = l.Tree.Nodes[node[r]].Next[obs[r]]
				}
				require.GreaterOrEqual(t, obs[r], int32(0))
				require.Less(t, obs[r], int32(calc.NumObservations))
			}
			written = append(written, append([]int32(nil), acts...))
		}
		for r := range ins {
			require.True(t, e.Correct(r), "level %d row %d %v", lv, r, ins[r].Context[:ins[r].NContext])
			var prog []int32
			for _, a := range written {
				prog = append(prog, a[r])
			}
			o := task.Score(tk, &ins[r], prog)
			require.Equal(t, o.Reward, ret[r])
			require.True(t, o.Correct)
		}
	}
	e := task.NewEnv(tk, rows)
	ins := make([]task.Instance, rows)
	for r := range ins {
		ins[r] = tk.Draw(key, 1, uint32(r), rng.PurposeTask, 6, task.Training)
	}
	acts, obs, rew, done := make([]int32, rows), make([]int32, rows), make([]float64, rows), make([]bool, rows)
	require.Zero(t, testing.AllocsPerRun(50, func() {
		for r := range ins {
			e.Reset(r, &ins[r])
		}
		for s := int32(0); s < 11; s++ {
			for r := range acts {
				acts[r] = (s*7 + int32(r)) % int32(tk.Vocab())
			}
			e.Step(acts, task.Transition{Obs: obs, Reward: rew, Done: done})
		}
	}))
}

// The open-loop baseline (observe=off) runs the same tools and writes no
// observations; stepping it is scoring.
func TestCalcObserveOffSteppingIsScoring(t *testing.T) {
	tk, err := OpenCalc("levels=" + calc.ObserveLevelsSpec + "; partial_credit=0.3; observe=off")
	require.NoError(t, err)
	var acts []int32
	for tok := int32(calc.FirstTool); tok < int32(tk.Vocab()); tok++ {
		acts = append(acts, tok)
	}
	key := rng.NewKey(3)
	for lv, l := range tk.Levels() {
		const rows = 300
		ins := make([]task.Instance, rows)
		for r := range ins {
			ins[r] = tk.Draw(key, 2, uint32(r), rng.PurposeTask, lv, task.Split(r%2))
		}
		progs := tasktest.Programs(key, rows, l.Budget, acts, nil)
		tasktest.RequireSteppingIsScoring(t, tk, task.NewEnv(tk, rows), ins, progs, l.Budget)
		tasktest.RequireSteppingIsScoring(t, tk, task.NewEnv(tasktest.ScoredOnly{Task: tk}, rows), ins, progs, l.Budget)
	}
}

// Subsets and Instances reach calc's; Explain shows the observations.
func TestCalcSubsetsInstancesExplain(t *testing.T) {
	tk, err := OpenCalc("levels=" + calc.ObserveLevelsSpec)
	require.NoError(t, err)
	st := tk.(task.Subsetter)
	require.Equal(t, []string{"tie", "zero", "negative"}, st.SubsetNames())
	en := tk.(task.Enumerator)
	held := en.Instances(0, task.HeldOut, 0) // abs(a-b): about 20 of 100
	require.NotEmpty(t, held)
	counts := make([]int, 3)
	for i := range held {
		require.NoError(t, task.Check(tk, &held[i]))
		s := st.Subsets(&held[i])
		for b := range counts {
			if s&(1<<b) != 0 {
				counts[b]++
			}
		}
		a, b := held[i].Context[0], held[i].Context[1]
		require.Equal(t, a == b, s&calc.SubsetTie != 0, "%d %d", a, b)
		require.Equal(t, a < b, s&calc.SubsetNegative != 0, "%d %d", a, b)
	}
	t.Logf("abs(a-b) held out: %d instances, tie %d, zero %d, negative %d", len(held), counts[0], counts[1], counts[2])
	train := en.Instances(0, task.Training, 0)
	require.Equal(t, 100, len(held)+len(train))
	require.Len(t, en.Instances(0, task.Training, 3), 3)
	require.Zero(t, st.Subsets(&task.Instance{Level: 99}), "not its instance: no subset, no panic")

	ct := tk.(*calcTask)
	in := ct.Instances(0, task.Training, 0)[0]
	for _, x := range ct.Instances(0, task.Training, 0) {
		if x.Context[0] > 0 && x.Context[0] < x.Context[1] {
			in = x
			break
		}
	}
	l := &ct.levels[0]
	c := taskkit.ToCalc(&in)
	prog := l.Tree.Program(&c.Digits, c.Vars)
	ex := task.Explain(tk, &in, prog)
	require.True(t, ex.Correct, "%v", c.Digits)
	t.Logf("tree of %s:\n%s", l.Expr, l.Tree)
	for _, s := range ex.Trace {
		t.Logf("%-6s %s", s.Token, s.State)
	}
	require.Contains(t, ex.Trace[1].State, "· obs v<0 v<m", "a−b < 0 after SUB")
	def, err := Calc("", 0)
	require.NoError(t, err)
	ex = task.Explain(def, new(taskkit.FromCalc(calc.Instance{Level: 0, Vars: 2, Budget: 5, Digits: [calc.MaxVars]int32{2, 3}, Target: 6})), []int32{calc.LOAD, calc.MUL, calc.ANS})
	require.NotContains(t, ex.Trace[0].State, "obs", "no observations, none shown")
}

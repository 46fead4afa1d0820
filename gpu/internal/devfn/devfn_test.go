//go:build cgo

package devfn

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/stretchr/testify/require"
)

func TestPhiloxAndDraws(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		ctr := [4]uint32{r.Uint32(), r.Uint32(), r.Uint32(), r.Uint32()}
		key := [2]uint32{r.Uint32(), r.Uint32()}
		require.Equal(t, rng.Philox4x32(ctr, key), Philox(ctr, key))
	}
	k := rng.NewKey(5)
	cdf := [3]float64{0.3, 0.55, 1}
	for b := uint32(0); b < 3000; b++ {
		for s := uint32(0); s < 6; s++ {
			require.Equal(t, k.Uniform(4, b, s, rng.PurposeAction), Uniform(k, 4, b, s, uint32(rng.PurposeAction)))
		}
		level := int(b % 3)
		want := seedtask.FromEnv(seed.DrawTask(k, 4, b, rng.PurposeEval+rng.Purpose(level<<8), level))
		got := DrawTask(k, 4, b, uint32(rng.PurposeEval)+uint32(level<<8), level)
		require.Equal(t, want, record.Unpack(got[:]), "episode %d", b)
		// the trainer's drawLevel with mix {0,1,2} all unlocked
		u := float64(k.Block(4, b, 0, rng.PurposeLevel)[0]) / (1 << 32)
		ws := 2
		if u < cdf[0] {
			ws = 0
		} else if u < cdf[1] {
			ws = 1
		}
		require.Equal(t, ws, DrawLevel(k, 4, b, 0|1<<8|2<<16, 3, cdf[0], cdf[1]))
		require.Equal(t, 2, DrawLevel(k, 4, b, 2, 1, 1, 1), "one unlocked level")
	}
}

func TestEnvGolden(t *testing.T) {
	cases, err := golden.LoadEnv(golden.Dir())
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	for i, c := range cases {
		in := seedtask.FromEnv(seed.Task{Level: c.Level, Digits: c.Digits})
		var rec [RecordWords]int32
		record.Pack(rec[:], &in)
		r, steps, correct := EnvRun(rec[:], c.Actions)
		require.Equalf(t, math.Float64bits(c.Reward), math.Float64bits(r), "case %d: %v want %v", i, r, c.Reward)
		require.Equal(t, c.Steps, steps, "case %d", i)
		require.Equal(t, seed.Run(seed.Task{Level: c.Level, Digits: c.Digits}, c.Actions).Correct, correct, "case %d", i)
		if len(c.Actions) > 0 {
			require.Equal(t, cpuEnd(seedtask.Seed(), &in, c.Actions), steps-1, "case %d: the rollout's loss mask ends where the CPU's does", i)
		}
	}
}

// cpuEnd is the step that ended the episode of prog on in as the CPU's
// rollout sees it (cpu/rollout.go: the first done flag of the task's Env, or
// the last step): the rollout kernel keeps the steps up to its scorer's
// steps − 1 in the loss.
func cpuEnd(tk task.Task, in *task.Instance, prog []int32) int {
	if t := envEnd(tk, in, prog); t >= 0 {
		return t
	}
	return len(prog) - 1
}

func TestPolicyRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const V = 18
	for i := 0; i < 2000; i++ {
		x := make([]float32, V)
		for j := range x {
			x[j] = float32(r.NormFloat64() * 3)
		}
		wantLp, wantEnt := make([]float32, V), make([]float32, 1)
		kernels.PolicyForward(1, V, x, V, wantLp, wantEnt)
		lp, ent := PolicyRow(x)
		require.InDeltaSlice(t, wantLp, lp, 2e-6)
		require.InDelta(t, wantEnt[0], ent, 2e-6)
		u := r.Float32()
		out := make([]int32, 1)
		probs := make([]float32, V)
		kernels.Exp(probs, wantLp)
		kernels.SampleRows(1, V, probs, []float32{u}, out)
		require.Equal(t, int(out[0]), SampleRow(wantLp, u))
		kernels.ArgmaxRows(1, V, x, V, out)
		require.Equal(t, int(out[0]), ArgmaxRow(x))
		a := r.IntN(V)
		dl, de := float32(r.NormFloat64()), float32(r.NormFloat64())
		want := make([]float32, V)
		kernels.PolicyBackward(1, V, wantLp, []int32{int32(a)}, []float32{dl}, []float32{de}, want, V)
		require.InDeltaSlice(t, want, PolicyDlogits(wantLp, a, dl, de), 1e-5)
	}
}

func TestGRUUnit(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const d = 1
	for i := 0; i < 2000; i++ {
		f := func() float32 { return float32(r.NormFloat64()) }
		gi, gh, hp := [3]float32{f(), f(), f()}, [3]float32{f(), f(), f()}, f()
		hn, act := make([]float32, 1), make([]float32, 3)
		kernels.GRUForward(1, d, gi[:], []int32{0}, gh[:], []float32{hp}, hn, act)
		h, rzn := GRUUnit(gi, gh, hp)
		require.InDelta(t, hn[0], h, 1e-6)
		require.InDeltaSlice(t, act, rzn[:], 1e-6)
		dh := f()
		dgh, dhp, dT := make([]float32, 3), make([]float32, 1), make([]float32, 3)
		kernels.GRUBackward(1, d, []int32{0}, act, gh[:], []float32{hp}, []float32{dh}, dgh, dhp, dT)
		dg, dt, p := GRUUnitBack(rzn, gh[2], hp, dh)
		require.InDeltaSlice(t, dgh, dg[:], 1e-5)
		require.InDeltaSlice(t, dT, dt[:], 1e-5)
		require.InDelta(t, dhp[0], p, 1e-6)
	}
}

// TestSeedLossGolden: the per-episode loss summed over a golden batch gives
// PyTorch's loss terms, from PyTorch's own logp, value and entropy.
func TestSeedLossGolden(t *testing.T) {
	m, err := golden.LoadModel(golden.Dir())
	require.NoError(t, err)
	for bi, b := range m.Batches {
		B, T := len(b.Ctx), m.Steps
		var pg, val, ent float64
		for i := 0; i < B; i++ {
			f := func(x []float64) []float32 {
				o := make([]float32, T)
				for s := range o {
					o[s] = float32(x[i*T+s])
				}
				return o
			}
			p, v, e, _, _, _ := EpisodeLoss(f(b.Logp), f(b.Value), f(b.Entropy), float32(b.Rewards[i]), B, 0.5, 0.01, false, T-1)
			pg, val, ent = pg+p, val+v, ent+e
		}
		require.InEpsilon(t, b.Loss.PG, pg, 1e-4, "batch %d", bi)
		require.InEpsilon(t, b.Loss.Value, val, 1e-4, "batch %d", bi)
		require.InEpsilon(t, b.Loss.Entropy, ent, 1e-4, "batch %d", bi)
	}
}

// TestStepLossMask: the per-step baseline keeps only the steps up to the
// first ANS, with enginekit.StepLoss's weights.
func TestStepLossMask(t *testing.T) {
	lp, v, e := []float32{-1, -2, -0.5, -3}, []float32{0.1, 0.4, 0.9, 0.2}, []float32{1, 2, 3, 4}
	const B, vc, ec, R = 8, 0.5, 0.1, float32(1.2)
	pg, value, ent, dl, de, dv := EpisodeLoss(lp, v, e, R, B, vc, ec, true, 2)
	var wpg, wv, we float64
	for s := 0; s <= 2; s++ {
		adv := float64(R) - float64(v[s])
		wpg -= float64(lp[s]) * adv / B
		wv += adv * adv / B
		we -= float64(e[s]) / (B * 4)
		require.Equal(t, float32(-adv/B), dl[s])
		require.Equal(t, float32(vc*2*(float64(v[s])-float64(R))/B), dv[s])
		require.Equal(t, float32(-ec/(B*4)), de[s])
	}
	require.Equal(t, []float32{0, 0, 0}, []float32{dl[3], dv[3], de[3]})
	require.InDelta(t, wpg, pg, 1e-12)
	require.InDelta(t, wv, value, 1e-12)
	require.InDelta(t, we, ent, 1e-12)
}

func TestLayout(t *testing.T) {
	for _, d := range []int{1, 7, 96, 128} {
		for _, c := range []struct{ V, S int }{{18, 3}, {19, 6}, {19, 1}} {
			l, err := gru.NewLayout(gru.Config{Vocab: c.V, Hidden: d, Levels: c.S})
			require.NoError(t, err)
			got := Layout(c.V, d, c.S)
			want := [11]int{l.Emb.Offset, l.LevelEmb.Offset, l.WIH.Offset, l.WHH.Offset, l.BIH.Offset, l.BHH.Offset, l.PiW.Offset, l.PiB.Offset, l.VW.Offset, l.VB.Offset, l.Size}
			require.Equal(t, want, got, "V=%d d=%d S=%d", c.V, d, c.S)
			for _, O := range []int{0, 1, 9} {
				lo, err := gru.NewLayout(gru.Config{Vocab: c.V, Hidden: d, Levels: c.S, Observations: O})
				require.NoError(t, err)
				obs, size, rows := LayoutObs(c.V, d, c.S, O)
				require.Equal(t, [3]int{lo.VB.Offset + 1, lo.Size, lo.InputRows()}, [3]int{obs, size, rows}, "V=%d d=%d S=%d O=%d", c.V, d, c.S, O)
				if O > 0 {
					require.Equal(t, lo.ObsEmb.Offset, obs)
				}
			}
		}
	}
}

// TestRecordLayout: the kernels' instance record is package record's, and
// holds task.Instance's arrays (the context up to record.MaxShown).
func TestRecordLayout(t *testing.T) {
	require.Equal(t, [12]int{record.Level, record.Vars, record.Budget, record.Digits, record.Target, record.NInner, record.Inner,
		record.Item, record.NShown, record.Shown, record.Words, record.OpWords}, RecordLayout())
	require.Equal(t, [3]int{interp.MaxDigits, interp.MaxInner, record.MaxShown}, RecordLimits())
}

// TestRecordContext: the kernels read a record's context as
// task.Instance.WriteContext writes it (tokens of its own, or the
// operands' digits), and its level embedding as task.Stage gives it (one
// for a model of one level embedding).
func TestRecordContext(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var ctx [task.MaxContext + 1]int32
	for i := 0; i < 500; i++ {
		in := task.Instance{Level: r.Int32N(5)}
		o := interp.Operands{Vars: r.Int32N(interp.MaxDigits + 1)}
		for j := range o.Digits {
			o.Digits[j] = r.Int32N(10)
		}
		o.Put(in.Data[:])
		in.NContext = int32(copy(in.Context[:], o.Digits[:o.Vars]))
		if i%3 != 0 {
			in.NContext = 1 + r.Int32N(record.MaxShown)
			for j := range in.Context {
				in.Context[j] = r.Int32N(40)
			}
		}
		rec := make([]int32, record.Words)
		record.Pack(rec, &in)
		n := in.WriteContext(ctx[:], task.CTX) - 1
		require.Equal(t, ctx[:n:n], Context(rec), "instance %d (vars %d, context %d)", i, o.Vars, in.NContext)
		require.Equal(t, n, record.ContextLen(rec))
	}
	for level := 0; level < 5; level++ {
		require.Equal(t, level, Stage(level, 5))
		require.Equal(t, 0, Stage(level, 1))
	}
}

// TestCalcRun: calc.cuh's interpreter of the op table is calc.Run, bit for
// bit: on every default level and on levels of all eight digits, random programs (tokens outside the
// vocabulary, budgets run out, operands exhausted) and each level's shortest
// program, at partial-credit weights whose quotients round.
func TestCalcRun(t *testing.T) {
	kinds, sources, registers := OpEncoding()
	require.Equal(t, [9]int32{int32(interp.KindNone), int32(interp.KindSet), int32(interp.KindAdd), int32(interp.KindSub), int32(interp.KindMul), int32(interp.KindSubFrom), int32(interp.KindAnswer),
		int32(interp.KindNeg), int32(interp.KindSwap)}, kinds)
	require.Equal(t, [4]int32{int32(interp.SrcNone), int32(interp.SrcOperand), int32(interp.SrcV), int32(interp.SrcM)}, sources)
	require.Equal(t, [2]int32{int32(interp.RegV), int32(interp.RegM)}, registers)
	ops := record.OpTable(calc.Ops[:])
	r := rand.New(rand.NewPCG(9, 10))
	key := rng.NewKey(3)
	counts := map[string]int{}
	for _, c := range []struct {
		levels string
		pc     float64
	}{{calc.DefaultLevelsSpec, 0}, {calc.DefaultLevelsSpec, 0.3}, {calc.DefaultLevelsSpec, 1.0 / 3}, {calc.DefaultLevelsSpec, 0.7},
		{"a+b+c+d+e+f+g+h, a*b-c*d+e", 0.3}} { // all eight digits
		pc := c.pc
		ls, err := calc.ParseLevels(c.levels)
		require.NoError(t, err)
		tk, err := calctask.Calc(c.levels, pc)
		require.NoError(t, err)
		for lv := range ls {
			for i := 0; i < 3000; i++ {
				in := tk.Draw(key, 1, uint32(i), rng.PurposeTask, lv, task.Split(i%2))
				var prog []int32
				switch {
				case i%7 == 0:
					prog = ls[lv].Shortest
				case i%2 == 0: // tools only: long programs that compute
					prog = make([]int32, r.IntN(int(in.Budget)+4))
					for s := range prog {
						prog[s] = calc.FirstTool + r.Int32N(calc.Vocab-calc.FirstTool)
					}
				default:
					prog = make([]int32, r.IntN(int(in.Budget)+4))
					for s := range prog {
						prog[s] = r.Int32N(calc.Vocab+3) - 1
					}
				}
				var rec [RecordWords]int32
				record.Pack(rec[:], &in)
				reward, steps, answered, correct := CalcRun(rec[:], ops, pc, prog)
				if len(prog) > 0 {
					require.Equal(t, cpuEnd(tk, &in, prog), steps-1, "the rollout's loss mask ends where the CPU's does: %s", calc.ProgramString(prog))
				}
				want := task.Score(tk, &in, prog)
				require.Equalf(t, math.Float64bits(want.Reward), math.Float64bits(reward), "pc %v level %d %s: %v want %v", pc, lv, calc.ProgramString(prog), reward, want.Reward)
				require.Equal(t, want.Correct, correct)
				if correct {
					counts["correct"]++
				}
				if answered {
					counts["answered"]++
				}
				if reward != 0 && reward != 1 {
					counts["credited"]++
				}
			}
		}
	}
	t.Log(counts)
	require.Positive(t, counts["correct"])
	require.Positive(t, counts["credited"])
}

// goEnvSteps steps seed.Episode with every action in turn, as EnvSteps does.
func goEnvSteps(tk seed.Task, actions []int32) ([]Step, bool) {
	var ep seed.Episode
	ep.Reset(tk)
	var out []Step
	for _, a := range actions {
		r := ep.Step(a)
		out = append(out, Step{Reward: r, Done: ep.Done(), Steps: ep.Steps(), Obs: NoObs})
	}
	return out, ep.Correct()
}

// requireSteps compares per-step sequences, rewards bit for bit.
func requireSteps(t *testing.T, want, got []Step, msg string, args ...any) {
	t.Helper()
	require.Len(t, got, len(want))
	for s := range want {
		w, g := want[s], got[s]
		require.Equalf(t, math.Float64bits(w.Reward), math.Float64bits(g.Reward), "step %d reward %v want %v: "+msg, append([]any{s, g.Reward, w.Reward}, args...)...)
		require.Equalf(t, w.Done, g.Done, "step %d done: "+msg, append([]any{s}, args...)...)
		require.Equalf(t, w.Steps, g.Steps, "step %d steps: "+msg, append([]any{s}, args...)...)
		require.Equalf(t, w.Obs, g.Obs, "step %d observation: "+msg, append([]any{s}, args...)...)
	}
}

// TestEnvSteps: env.cuh's simdrl_env_reset/simdrl_env_step are seed.Episode
// step for step (reward bits, done, tokens consumed, correct at the end) on
// every golden case, with tokens after its end, and on random programs of
// every stage (tokens outside the vocabulary, programs past MaxSteps).
func TestEnvSteps(t *testing.T) {
	cases, err := golden.LoadEnv(golden.Dir())
	require.NoError(t, err)
	require.NotEmpty(t, cases)
	check := func(tk seed.Task, prog []int32, msg string, args ...any) {
		in := seedtask.FromEnv(tk)
		var rec [RecordWords]int32
		record.Pack(rec[:], &in)
		want, wantCorrect := goEnvSteps(tk, prog)
		got, correct := EnvSteps(rec[:], prog)
		requireSteps(t, want, got, msg, args...)
		require.Equalf(t, wantCorrect, correct, msg, args...)
		// the whole-program scorer is the loop over the step
		r, steps, c := EnvRun(rec[:], prog)
		var ret float64
		for _, s := range got {
			ret += s.Reward
		}
		require.Equalf(t, math.Float64bits(ret), math.Float64bits(r), msg, args...)
		require.Equal(t, c, correct)
		if len(got) > 0 {
			require.Equal(t, got[len(got)-1].Steps, steps)
		}
	}
	for i, c := range cases {
		tk := seed.Task{Level: c.Level, Digits: c.Digits}
		prog := append(append([]int32{}, c.Actions...), seed.ANS, seed.MUL, seed.ANS)
		check(tk, prog, "golden case %d", i)
	}
	r := rand.New(rand.NewPCG(11, 12))
	counts := map[string]int{}
	for i := 0; i < 20000; i++ {
		var tk seed.Task
		tk.Level = i % 3
		for k := range tk.Digits {
			tk.Digits[k] = r.IntN(10)
		}
		prog := make([]int32, r.IntN(seed.MaxSteps+4))
		for s := range prog {
			if i%2 == 0 {
				prog[s] = seed.MUL + r.Int32N(seed.ANS-seed.MUL+1)
			} else {
				prog[s] = r.Int32N(seed.Vocab+3) - 1
			}
		}
		check(tk, prog, "level %d digits %v program %v", tk.Level, tk.Digits, prog)
		if o := seed.Run(tk, prog); o.Correct {
			counts["correct"]++
		} else if o.Reward != 0 {
			counts["shaped"]++
		}
	}
	t.Log(counts)
	require.Positive(t, counts["correct"])
	require.Positive(t, counts["shaped"])
}

// goCalcSteps steps calc.Episode with every action in turn, as CalcSteps
// does, on the 19-token machine without observations.
func goCalcSteps(in *calc.Instance, pc float64, actions []int32) ([]Step, calc.Outcome) {
	_, out, o := goCalcStepsOps(in, pc, calc.Ops[:], interp.ObserveNone, actions)
	return out, o
}

// goCalcStepsOps is goCalcSteps on the machine of ops, observing as obs:
// the first observation, then each step's.
func goCalcStepsOps(in *calc.Instance, pc float64, ops []interp.Op, obs interp.Observation, actions []int32) (int32, []Step, calc.Outcome) {
	var ep calc.Episode
	ep.ResetOps(in, pc, ops)
	observe := func() int32 {
		if obs == interp.ObserveSigns {
			return ep.Observation()
		}
		return NoObs
	}
	first := observe()
	var out []Step
	for _, a := range actions {
		r := ep.Step(a)
		out = append(out, Step{Reward: r, Done: ep.Done(), Steps: int(ep.Outcome().Steps), Obs: observe()})
	}
	return first, out, ep.Outcome()
}

// calcInstance is task.Instance as calc's (taskkit.ToCalc).
func calcInstance(in *task.Instance) calc.Instance {
	o := interp.Get(in.Data[:])
	c := calc.Instance{Level: in.Level, Vars: o.Vars, Budget: in.Budget, Target: o.Target, NInner: o.NInner}
	copy(c.Digits[:], o.Digits[:])
	copy(c.Inner[:], o.Inner[:o.NInner])
	return c
}

// TestCalcSteps: calc.cuh's simdrl_calc_reset/simdrl_calc_step are
// calc.Episode step for step (reward bits, done, tokens consumed, answered and
// correct at the end) on every default level and a level of all eight digits:
// each level's shortest program, random tool programs and random tokens
// (outside the vocabulary too), all run past their budget.
func TestCalcSteps(t *testing.T) {
	ops := record.OpTable(calc.Ops[:])
	r := rand.New(rand.NewPCG(13, 14))
	key := rng.NewKey(4)
	counts := map[string]int{}
	for _, c := range []struct {
		levels string
		pc     float64
	}{{calc.DefaultLevelsSpec, 0}, {calc.DefaultLevelsSpec, 1.0 / 3}, {calc.DefaultLevelsSpec, 0.7}, {"a+b+c+d+e+f+g+h, a*b-c*d+e", 0.3}} {
		ls, err := calc.ParseLevels(c.levels)
		require.NoError(t, err)
		tk, err := calctask.Calc(c.levels, c.pc)
		require.NoError(t, err)
		for lv := range ls {
			for i := 0; i < 1500; i++ {
				in := tk.Draw(key, 2, uint32(i), rng.PurposeTask, lv, task.Split(i%2))
				var prog []int32
				switch {
				case i%5 == 0:
					prog = append(append([]int32{}, ls[lv].Shortest...), calc.ANS, calc.FirstTool)
				case i%2 == 0:
					prog = make([]int32, r.IntN(int(in.Budget)+4))
					for s := range prog {
						prog[s] = calc.FirstTool + r.Int32N(calc.Vocab-calc.FirstTool)
					}
				default:
					prog = make([]int32, r.IntN(int(in.Budget)+4))
					for s := range prog {
						prog[s] = r.Int32N(calc.Vocab+3) - 1
					}
				}
				var rec [RecordWords]int32
				record.Pack(rec[:], &in)
				ci := calcInstance(&in)
				want, wo := goCalcSteps(&ci, c.pc, prog)
				_, got, answered, correct := CalcSteps(rec[:], ops, c.pc, 0, prog)
				msg := "pc %v level %d %s"
				requireSteps(t, want, got, msg, c.pc, lv, calc.ProgramString(prog))
				require.Equal(t, wo.Answered, answered)
				require.Equal(t, wo.Correct, correct)
				reward, steps, ans, cor := CalcRun(rec[:], ops, c.pc, prog)
				require.Equal(t, math.Float64bits(wo.Reward), math.Float64bits(reward))
				require.Equal(t, int(wo.Steps), steps)
				require.Equal(t, answered, ans)
				require.Equal(t, correct, cor)
				if correct {
					counts["correct"]++
				}
				if wo.Reward != 0 && wo.Reward != 1 {
					counts["credited"]++
				}
				if !answered && len(got) > 0 && got[len(got)-1].Done {
					counts["budget"]++
				}
			}
		}
	}
	t.Log(counts)
	require.Positive(t, counts["correct"])
	require.Positive(t, counts["credited"])
	require.Positive(t, counts["budget"])
}

// TestCalcStepsObserving: on the branching machine (calc.BranchOps: NEG and
// SWAP) with the signs observation, calc.cuh's reset and step are
// calc.Episode step for step: rewards bit for bit, done, tokens consumed and
// every observation (the reset's, after each token, after the end), on
// random tool programs and random tokens (outside the 21-token vocabulary
// too), run past their budget; and without observing, each is NoObs.
func TestCalcStepsObserving(t *testing.T) {
	none, signs, n := ObserveEncoding()
	require.Equal(t, int32(interp.ObserveNone), none)
	require.Equal(t, int32(interp.ObserveSigns), signs)
	require.Equal(t, calc.NumObservations, n)
	require.Equal(t, int32(-1), int32(NoObs))
	require.Equal(t, task.NoObservation, int32(NoObs))
	ops := record.OpTable(calc.BranchOps[:])
	r := rand.New(rand.NewPCG(15, 16))
	key := rng.NewKey(5)
	counts := map[string]int{}
	seen := map[int32]bool{}
	for _, c := range []struct {
		levels string
		pc     float64
	}{{calc.DefaultLevelsSpec, 0.3}, {"a+b+c+d+e+f+g+h, a*b-c*d+e", 1.0 / 3}} {
		ls, err := calc.ParseLevels(c.levels)
		require.NoError(t, err)
		tk, err := calctask.Calc(c.levels, c.pc)
		require.NoError(t, err)
		for lv := range ls {
			for i := 0; i < 1500; i++ {
				in := tk.Draw(key, 3, uint32(i), rng.PurposeTask, lv, task.Split(i%2))
				prog := make([]int32, r.IntN(int(in.Budget)+4))
				for s := range prog {
					if i%2 == 0 {
						prog[s] = calc.FirstTool + r.Int32N(calc.BranchVocab-calc.FirstTool)
					} else {
						prog[s] = r.Int32N(calc.BranchVocab+3) - 1
					}
				}
				var rec [RecordWords]int32
				record.Pack(rec[:], &in)
				ci := calcInstance(&in)
				for _, obs := range []interp.Observation{interp.ObserveSigns, interp.ObserveNone} {
					wf, want, wo := goCalcStepsOps(&ci, c.pc, calc.BranchOps[:], obs, prog)
					gf, got, answered, correct := CalcSteps(rec[:], ops, c.pc, int32(obs), prog)
					require.Equal(t, wf, gf, "the reset's observation")
					requireSteps(t, want, got, "pc %v level %d observe %d %v", c.pc, lv, obs, prog)
					require.Equal(t, wo.Answered, answered)
					require.Equal(t, wo.Correct, correct)
					if obs == interp.ObserveSigns {
						for _, s := range got {
							seen[s.Obs] = true
						}
					}
				}
				if wo := calc.RunOps(ci, prog, c.pc, calc.BranchOps[:]); wo.Correct {
					counts["correct"]++
				}
				for _, a := range prog {
					if a == calc.NEG || a == calc.SWAP {
						counts["branch tokens"]++
					}
				}
			}
		}
	}
	t.Log(counts, len(seen))
	require.Positive(t, counts["branch tokens"])
	require.Len(t, seen, calc.NumObservations, "every observation occurs")

	// The observation curriculum's task, against its own Env (what the CPU
	// engine steps): its op table, its instances, its observations.
	tk, err := calctask.Calc(calc.ObserveLevelsSpec, 0.3)
	require.NoError(t, err)
	require.Equal(t, calc.NumObservations, task.Observations(tk))
	it := tk.(task.Interpreted)
	tops := record.OpTable(it.Ops())
	env := task.NewEnv(tk, 1)
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	solved := 0
	for lv := range tk.Levels() {
		for i := 0; i < 1000; i++ {
			in := tk.Draw(key, 4, uint32(i), rng.PurposeTask, lv, task.Split(i%2))
			prog := make([]int32, r.IntN(int(in.Budget)+4))
			for s := range prog {
				if i%2 == 0 {
					prog[s] = calc.FirstTool + r.Int32N(calc.BranchVocab-calc.FirstTool)
				} else {
					prog[s] = r.Int32N(calc.BranchVocab+3) - 1
				}
			}
			var rec [RecordWords]int32
			record.Pack(rec[:], &in)
			first, got, _, correct := CalcSteps(rec[:], tops, it.PartialCredit(), signs, prog)
			require.Equal(t, env.Reset(0, &in), first, "level %d: the reset's observation", lv)
			for s, a := range prog {
				env.Step([]int32{a}, out)
				want := Step{Reward: out.Reward[0], Done: out.Done[0], Obs: out.Obs[0], Steps: got[s].Steps}
				requireSteps(t, []Step{want}, got[s:s+1], "level %d step %d of %v", lv, s, prog)
			}
			require.Equal(t, env.Correct(0), correct)
			if correct {
				solved++
			}
		}
	}
	t.Log("observation curriculum: solved by chance", solved)
}

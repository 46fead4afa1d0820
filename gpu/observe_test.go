//go:build cgo

package gpu

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// signsCalc is a calc task on the branching machine (calc.BranchOps: NEG,
// SWAP) that observes the signs of v and v − m after every token: what the
// kernels accept as an observing task (task.Interpreted, task.Observer,
// calc.ObserveSigns).
type signsCalc struct{ task.Task }

func (signsCalc) Vocab() int                       { return calc.BranchVocab }
func (signsCalc) TokenName(tok int32) string       { return calc.TokenName(tok) }
func (signsCalc) Ops() []calc.Op                   { return calc.BranchOps[:] }
func (s signsCalc) PartialCredit() float64         { return s.Task.(task.Interpreted).PartialCredit() }
func (signsCalc) Observations() int                { return calc.NumObservations }
func (signsCalc) ObservationName(obs int32) string { return calc.ObservationName(obs) }
func (signsCalc) Observation() calc.Observation    { return calc.ObserveSigns }
func (s signsCalc) Score(in *task.Instance, program []int32) task.Outcome {
	o := calc.RunOps(calcOf(in), program, s.PartialCredit(), calc.BranchOps[:])
	return task.Outcome{Reward: o.Reward, Correct: o.Correct}
}

// calcOf is a task.Instance as calc's.
func calcOf(in *task.Instance) calc.Instance {
	c := calc.Instance{Level: in.Level, Vars: in.Vars, Budget: in.Budget, Target: in.Target, NInner: in.NInner}
	copy(c.Digits[:], in.Digits[:])
	copy(c.Inner[:], in.Inner[:in.NInner])
	return c
}

// observingTask is the observing calc task of levels with partial credit pc.
func observingTask(t testing.TB, levels string, pc float64) task.Task {
	tk, err := task.Calc(levels, pc)
	require.NoError(t, err)
	return signsCalc{tk}
}

// observingLayout is tk's model with its observations.
func observingLayout(t testing.TB, hidden int, tk task.Task) *gru.Layout {
	l, err := gru.NewLayout(gru.Config{Vocab: tk.Vocab(), Hidden: hidden, Levels: len(tk.Levels()), NotActions: tk.NotActions(),
		Observations: task.Observations(tk)})
	require.NoError(t, err)
	require.NoError(t, l.SetStart(task.ContextEnd(tk)))
	return l
}

// observingEngine builds an engine for tk on layout l with params, its
// rollout and backward tiles forced to tile ("" for the planner's) until the
// test ends.
func observingEngine(t testing.TB, d *Device, cfg trainer.Config, tk task.Task, l *gru.Layout, params []float32, tile string) *engine {
	saved := tileOverride
	tileOverride = tile
	t.Cleanup(func() { tileOverride = saved })
	var e *engine
	require.NoError(t, d.do(func() error {
		var err error
		if e, err = newEngine(d, cfg, tk, l); err != nil {
			return err
		}
		return e.setParams(params)
	}))
	t.Cleanup(func() { d.do(func() error { e.free(); return nil }) })
	return e
}

// observedRun is what one observing rollout left on the device.
type observedRun struct {
	tokens, inputs, tasks []int32   // (T+1)×B, (T+1)×B (training), B records
	stats                 []float64 // per block
	nb                    int
}

func (e *engine) observedRollout(s rolloutSpec) (observedRun, error) {
	var r observedRun
	nb, err := e.rollout(s)
	if err != nil {
		return r, err
	}
	r.nb = nb
	r.tokens, r.tasks, r.stats = make([]int32, (e.T+1)*s.n), make([]int32, record.Words*s.n), make([]float64, nStats*nb)
	if err = download(r.tokens, e.tokens); err == nil {
		err = download(r.tasks, e.tasks)
	}
	if err == nil {
		err = download(r.stats, e.stats)
	}
	if err == nil && s.train {
		r.inputs = make([]int32, (e.T+1)*s.n)
		err = download(r.inputs, e.inputs)
	}
	return r, err
}

// TestGPUObservingStepsAsCPU: on the observing calc task (branching
// machine, signs observation) each episode's inputs on the GPU are the
// context end with calc.Episode's first observation, then every action with
// the observation calc.Episode gives after it (bit for bit), and each
// episode's reward is calc.Episode's return: float32 in training, float64
// bits in a greedy evaluation (one episode a block, so that the block's
// statistics are the episode's).
func TestGPUObservingStepsAsCPU(t *testing.T) {
	d := openGPU(t)
	const levels, pc = "a*b, a*b+c, a*b-c*d", 0.3
	tk := observingTask(t, levels, pc)
	cfg := calcConfig(t, levels, pc)
	cfg.Hidden, cfg.Batch, cfg.Seed = 32, 40, 7
	l := observingLayout(t, cfg.Hidden, tk)
	params := make([]float32, l.Size)
	l.Init(params, cfg.Seed)
	e := observingEngine(t, d, cfg, tk, l, params, "1x1")
	require.Equal(t, calc.NumObservations, e.O)
	B, T, O := cfg.Batch, cfg.Steps, int32(e.O)
	counts := map[string]int{}
	for round := uint32(1); round <= 3; round++ {
		lv := int(round-1) % len(tk.Levels())
		var train, greedy observedRun
		require.NoError(t, d.do(func() error {
			if err := e.drawOnHost(B, round, rng.PurposeTask, func(int) int { return lv }, task.Training); err != nil {
				return err
			}
			var err error
			if train, err = e.observedRollout(rolloutSpec{n: B, mode: modeSample, train: true, level: lv, purpose: rng.PurposeTask, round: round,
				givenTasks: true, entropy: cfg.EntropyCoef}); err != nil {
				return err
			}
			greedy, err = e.observedRollout(rolloutSpec{n: B, mode: modeGreedy, level: lv, givenTasks: true})
			return err
		}))
		require.Equal(t, B, train.nb, "one episode a block")
		require.Equal(t, B, greedy.nb, "one episode a block")
		for b := 0; b < B; b++ {
			in := tk.Draw(e.key, round, uint32(b), rng.PurposeTask, lv, task.Training)
			var rec [record.Words]int32
			record.Pack(rec[:], &in)
			require.Equal(t, rec[:], train.tasks[record.Words*b:record.Words*(b+1)])
			ci := calcOf(&in)
			for _, run := range []observedRun{train, greedy} {
				var ep calc.Episode
				ep.ResetOps(&ci, pc, calc.BranchOps[:])
				if run.inputs != nil {
					require.Equal(t, int32(task.CTX)*O+ep.Observation(), run.inputs[b], "round %d episode %d: the first input", round, b)
				}
				ret := 0.0
				prog := make([]int32, T)
				for s := 0; s < T; s++ {
					a := run.tokens[(s+1)*B+b]
					prog[s] = a
					ret += ep.Step(a)
					if run.inputs != nil {
						require.Equalf(t, a*O+ep.Observation(), run.inputs[(s+1)*B+b], "round %d episode %d step %d: input after %s", round, b, s, calc.TokenName(a))
						counts["observation "+calc.ObservationName(ep.Observation())]++
					}
					if a == calc.NEG || a == calc.SWAP {
						counts["branch tokens"]++
					}
				}
				st := run.stats[nStats*b : nStats*(b+1)]
				want := tk.Score(&in, prog)
				require.Equal(t, math.Float64bits(want.Reward), math.Float64bits(ret))
				if run.inputs != nil {
					require.Equal(t, math.Float64bits(float64(float32(ret))), math.Float64bits(st[0]), "round %d episode %d: training reward", round, b)
				} else {
					require.Equal(t, math.Float64bits(ret), math.Float64bits(st[0]), "round %d episode %d: evaluation reward", round, b)
				}
				require.Equal(t, want.Correct, st[1] == 1, "round %d episode %d: solved", round, b)
				if ret != 0 {
					counts["rewarded"]++
				}
			}
		}
	}
	t.Log(counts)
	require.Positive(t, counts["branch tokens"])
	require.Positive(t, counts["rewarded"])
	require.GreaterOrEqual(t, len(counts), 6, "several observations occur")
}

// TestGPUObservingGradientsAsCPU: one sampled training rollout of an
// observing model on the GPU (the planner's tiles, and 1×1) and gru's
// Workspace teacher-forced on the same contexts, actions and inputs, with the
// GPU's loss weights: logp, entropy and value per step, and the gradient of
// every tensor (obs_emb.weight included), within golden.Tolerance; then the
// norm and one Adam step run over the longer parameter buffer.
func TestGPUObservingGradientsAsCPU(t *testing.T) {
	d := openGPU(t)
	const levels, pc = "a*b, a*b+c, a*b-c*d", 0.3
	tk := observingTask(t, levels, pc)
	for _, tile := range []string{"", "1x1", "8x2"} {
		cfg := calcConfig(t, levels, pc)
		cfg.Hidden, cfg.Batch, cfg.Seed = 37, 48, 11
		l := observingLayout(t, cfg.Hidden, tk)
		params := make([]float32, l.Size)
		l.Init(params, cfg.Seed)
		e := observingEngine(t, d, cfg, tk, l, params, tile)
		B, T := cfg.Batch, cfg.Steps
		var run observedRun
		logpa, ent, val, dlogp, dent, dval := make([]float32, T*B), make([]float32, T*B), make([]float32, T*B),
			make([]float32, T*B), make([]float32, T*B), make([]float32, T*B)
		grad := make([]float32, l.Size)
		require.NoError(t, d.do(func() error {
			level := func(b int) int { return b % len(tk.Levels()) }
			if err := e.drawOnHost(B, 5, rng.PurposeTask, level, task.Training); err != nil {
				return err
			}
			var err error
			if run, err = e.observedRollout(rolloutSpec{n: B, mode: modeSample, train: true, level: -1, purpose: rng.PurposeTask, round: 5,
				givenTasks: true, entropy: cfg.EntropyCoef}); err != nil {
				return err
			}
			if err = e.gradients(); err != nil {
				return err
			}
			if err = e.finish(run.nb, true, cfg.EntropyCoef); err != nil {
				return err
			}
			for _, x := range []struct {
				dst []float32
				p   devPtr
			}{{logpa, e.logpa}, {ent, e.ent}, {val, e.val}, {dlogp, e.dlogp}, {dent, e.dent}, {dval, e.dval}, {grad, e.grad}} {
				if err = download(x.dst, x.p); err != nil {
					return err
				}
			}
			return nil
		}))

		dv := gru.NewDerived(l)
		dv.Compute(l, params)
		table := make([]float32, len(dv.Table))
		require.NoError(t, d.do(func() error { return download(table, e.table) }))
		require.LessOrEqual(t, golden.RelErr(table, f64s(dv.Table)), golden.Tolerance, "the V·O-row token table")
		w, err := gru.NewWorkspace(l, B, T)
		require.NoError(t, err)
		w.Reset(B)
		var ctx [gru.MaxContext]int32
		for b := 0; b < B; b++ {
			in := tk.Draw(e.key, 5, uint32(b), rng.PurposeTask, b%len(tk.Levels()), task.Training)
			k := in.Context(ctx[:], task.CTX)
			w.SetContext(b, int(in.Level), ctx[:k])
			for s := 0; s < T; s++ {
				w.SetAction(b, s, run.tokens[(s+1)*B+b])
			}
		}
		w.Start(params)
		for s := 0; s < T; s++ {
			copy(w.Inputs(s), run.inputs[s*B:(s+1)*B])
			w.Step(params, dv, s, gru.Teacher, gru.Stream{})
		}
		cl, ce, cv := make([]float32, T*B), make([]float32, T*B), make([]float32, T*B)
		for b := 0; b < B; b++ {
			for s := 0; s < T; s++ {
				cl[s*B+b], ce[s*B+b], cv[s*B+b] = w.Logp(b, s), w.Entropy(b, s), w.Value(b, s)
			}
		}
		for name, p := range map[string][2][]float32{"logp": {logpa, cl}, "entropy": {ent, ce}, "value": {val, cv}} {
			re := golden.RelErr(p[0], f64s(p[1]))
			t.Logf("tile %q %-8s rel err %.2e", tile, name, re)
			require.LessOrEqual(t, re, golden.Tolerance, "tile %q %s", tile, name)
		}
		copy(w.DLogp, dlogp)
		copy(w.DEnt, dent)
		copy(w.DValue, dval)
		want := make([]float32, l.Size)
		tg := gru.NewTableGradient(l)
		w.Backward(params, dv, want, tg.Buffer())
		tg.Apply(params, want)
		for _, tn := range l.Tensors {
			re := golden.RelErr(tn.View(grad), f64s(tn.View(want)))
			t.Logf("tile %q grad %-18s rel err %.2e", tile, tn.Name, re)
			require.LessOrEqual(t, re, golden.Tolerance, "tile %q grad %s", tile, tn.Name)
		}
		require.NotZero(t, golden.RelErr(l.ObsEmb.View(want), make([]float64, l.ObsEmb.Size)), "obs_emb gets a gradient")
		var sq float64
		for _, g := range want {
			sq += float64(g) * float64(g)
		}
		require.InEpsilon(t, math.Sqrt(sq), e.finHost[finNorm], 1e-4, "the norm covers obs_emb")
		// One Adam step moves obs_emb too.
		after := make([]float32, l.Size)
		require.NoError(t, d.do(func() error {
			if err := e.adam(); err != nil {
				return err
			}
			return e.getParams(after)
		}))
		require.NotEqual(t, l.ObsEmb.View(params), l.ObsEmb.View(after))
	}
}

func f64s(x []float32) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = float64(v)
	}
	return out
}

// TestGPURefusesOtherObservations: an observing task the kernels do not
// observe (not the calculator's signs) is refused in one line, and an
// observing task with a model without observations too.
func TestGPURefusesOtherObservations(t *testing.T) {
	tk := observingTask(t, "a*b", 0.3)
	for _, bad := range []task.Task{otherObs{tk.(signsCalc)}, seedObs{task.Seed()}} {
		_, err := scorerOf(bad)
		require.Error(t, err)
		require.NotContains(t, err.Error(), "\n")
		require.Contains(t, err.Error(), "observe only the calculator's signs")
	}
	sc, err := scorerOf(tk)
	require.NoError(t, err)
	require.Equal(t, calc.NumObservations, sc.obs)
	require.Equal(t, int(calc.ObserveSigns), sc.observe)
}

type otherObs struct{ signsCalc }

func (otherObs) Observations() int { return 4 }

type seedObs struct{ task.Task }

func (seedObs) Observations() int                { return 9 }
func (seedObs) ObservationName(obs int32) string { return "" }

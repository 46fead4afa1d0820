//go:build cgo

package gpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// obsLevels are levels of calc's observation curriculum (calc.ObserveLevelsSpec's
// harder half): the task runs the branching machine (NEG, SWAP) and observes
// the signs of v and v − m.
const obsLevels = "abs(a-b)*c, max(a,b)+c, max(a*b,c*d)"

// observingTask is the observing calc task of levels with partial credit pc.
func observingTask(t testing.TB, levels string, pc float64) task.Task {
	tk, err := calctask.Calc(levels, pc)
	require.NoError(t, err)
	require.Equal(t, calc.NumObservations, task.Observations(tk))
	require.Equal(t, calc.BranchVocab, tk.Vocab())
	return tk
}

// observingLayout is tk's model with its observations, as every engine
// lays it out (enginekit.NewLayout).
func observingLayout(t testing.TB, hidden int, tk task.Task) *gru.Layout {
	l, err := enginekit.NewLayout(hidden, tk)
	require.NoError(t, err)
	require.Equal(t, task.Observations(tk), l.Observations)
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
	tokens, inputs, tasks []int32   // (T+1)×B, (R+T+1)×B (training with observations or reading), B records
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
	if err == nil && s.train && e.inputs != 0 { // the inputs of the reading steps, if any, then of the policy's
		r.inputs = make([]int32, (e.last.reading+e.T+1)*s.n)
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
	const pc = 0.3
	tk := observingTask(t, obsLevels, pc)
	cfg := calcConfig(t, obsLevels, pc)
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
		ins := make([]task.Instance, B)
		for b := range ins {
			ins[b] = tk.Draw(e.key, round, uint32(b), rng.PurposeTask, lv, task.Training)
			var rec [record.Words]int32
			record.Pack(rec[:], &ins[b])
			require.Equal(t, rec[:], train.tasks[record.Words*b:record.Words*(b+1)])
		}
		for _, run := range []observedRun{train, greedy} {
			// The CPU's rules: the task's own Env, all rows stepped at once.
			env := task.NewEnv(tk, B)
			require.Equal(t, calc.NumObservations, env.Observations())
			ret := make([]float64, B)
			for b := range ins {
				first := env.Reset(b, &ins[b])
				if run.inputs != nil {
					require.Equal(t, int32(task.CTX)*O+first, run.inputs[b], "round %d episode %d: the first input", round, b)
				}
			}
			out := task.Transition{Obs: make([]int32, B), Reward: make([]float64, B), Done: make([]bool, B)}
			for s := 0; s < T; s++ {
				acts := run.tokens[(s+1)*B : (s+2)*B]
				env.Step(acts, out)
				for b, a := range acts {
					ret[b] += out.Reward[b]
					if run.inputs != nil {
						require.Equalf(t, a*O+out.Obs[b], run.inputs[(s+1)*B+b], "round %d episode %d step %d: input after %s", round, b, s, calc.TokenName(a))
						counts["observation "+calc.ObservationName(out.Obs[b])]++
					}
					if a == calc.NEG || a == calc.SWAP {
						counts["branch tokens"]++
					}
				}
			}
			for b := range ins {
				prog := make([]int32, T)
				for s := range prog {
					prog[s] = run.tokens[(s+1)*B+b]
				}
				want := task.Score(tk, &ins[b], prog)
				require.Equal(t, math.Float64bits(want.Reward), math.Float64bits(ret[b]))
				st := run.stats[nStats*b : nStats*(b+1)]
				if run.inputs != nil {
					require.Equal(t, math.Float64bits(float64(float32(ret[b]))), math.Float64bits(st[0]), "round %d episode %d: training reward", round, b)
				} else {
					require.Equal(t, math.Float64bits(ret[b]), math.Float64bits(st[0]), "round %d episode %d: evaluation reward", round, b)
				}
				require.Equal(t, want.Correct, st[1] == 1, "round %d episode %d: solved", round, b)
				require.Equal(t, env.Correct(b), st[1] == 1, "round %d episode %d: solved (Env)", round, b)
				if ret[b] != 0 {
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
// observing model on the GPU (the planner's tiles, and every EPT) and gru's
// Workspace teacher-forced on the same contexts, actions and inputs, with the
// GPU's loss weights: logp, entropy and value per step, and the gradient of
// every tensor (obs_emb.weight included), within golden.Tolerance; then the
// norm and one Adam step run over the longer parameter buffer.
func TestGPUObservingGradientsAsCPU(t *testing.T) {
	d := openGPU(t)
	const pc = 0.3
	tk := observingTask(t, obsLevels, pc)
	for _, tile := range []string{"", "1x1", "2x2:l1", "4x2", "8x2"} {
		cfg := calcConfig(t, obsLevels, pc)
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
			k := in.WriteContext(ctx[:], task.CTX)
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
// observe (not the calculator's signs) and the host cannot step (no game,
// Env or scorer) is refused in one line; one the host steps (a Go game)
// observes its own observations there; the observing calc task is accepted,
// and the open-loop calc task observes nothing.
func TestGPURefusesOtherObservations(t *testing.T) {
	tk := observingTask(t, "abs(a-b)", 0.3)
	for _, bad := range []task.Task{otherObs{tk}, otherObs{seedtask.Seed()}} {
		_, err := scorerOf(bad)
		require.Error(t, err)
		require.NotContains(t, err.Error(), "\n")
		require.Contains(t, err.Error(), "tasks whose games the host steps")
	}
	hosted, err := scorerOf(walkTask{})
	require.NoError(t, err)
	require.Equal(t, scoreHost, hosted.kind)
	require.Equal(t, 3, hosted.obs)
	sc, err := scorerOf(tk)
	require.NoError(t, err)
	require.Equal(t, calc.NumObservations, sc.obs)
	require.Equal(t, int(interp.ObserveSigns), sc.observe)
	require.Len(t, sc.ops, calc.BranchVocab)
	open, err := calctask.Calc("a*b", 0.3)
	require.NoError(t, err)
	sc, err = scorerOf(open)
	require.NoError(t, err)
	require.Zero(t, sc.obs)
}

// otherObs is a task with some other observation: it hides the task's op
// table and observation kind.
type otherObs struct{ task.Task }

func (otherObs) Observations() int                { return 4 }
func (otherObs) ObservationName(obs int32) string { return "" }

// TestGPUObservingTrainingMatchesCPU: a few updates of the observing calc
// task (calc.ObserveLevelsSpec, every level drawn per episode) through
// trainer.Trainer on both engines, from the initial model and from a
// CPU-trained one: the same loss, reward and gradient norm as
// TestGPUCalcTrainingMatchesCPU holds them (the first update's rewards and
// solved episodes exactly), and greedy evaluations of every level.
func TestGPUObservingTrainingMatchesCPU(t *testing.T) {
	openGPU(t).Close()
	for _, pretrain := range []int{0, 40} {
		cfg := calcConfig(t, calc.ObserveLevelsSpec, 0.3)
		cfg.Batch, cfg.Curriculum = 96, "mixed"
		host := trainedOnCPU(t, cfg, pretrain)
		require.Equal(t, calc.NumObservations, task.Observations(host.Task()))
		g, err := newGPURun(cfg)
		require.NoError(t, err)
		t.Cleanup(g.Close)
		require.Equal(t, calc.NumObservations, g.e.O)
		if pretrain > 0 {
			f, err := host.Checkpoint()
			require.NoError(t, err)
			require.NoError(t, g.Restore(f))
		}
		updatesMatch(t, fmt.Sprintf("pretrain %d", pretrain), host, g, pretrain+1, pretrain+4, true)
		// Greedy evaluations, observations fed back on both.
		want, err := host.EvaluateAll(200, 9, task.HeldOut)
		require.NoError(t, err)
		got, err := g.EvaluateAll(200, 9, task.HeldOut)
		require.NoError(t, err)
		for lv := range want {
			t.Logf("pretrain %d level %d: solve rate CPU %.3f GPU %.3f, reward %.4f %.4f", pretrain, lv, want[lv].SolveRate, got[lv].SolveRate, want[lv].MeanReward, got[lv].MeanReward)
			require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.02, "level %d solve rate", lv)
			require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.03, "level %d reward", lv)
		}
	}
}

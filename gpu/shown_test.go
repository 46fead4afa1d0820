//go:build cgo

package gpu

import (
	"math"
	"slices"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/calctask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// shownTask is the calc task (its machine, op table and Env) whose
// instances show the policy a context of their own (Instance.Context, up to
// record.MaxShown tokens, as every level declares, of lengths that vary with
// the item; item 0 shows its digits), with one level embedding for all levels (task.Unstaged) and
// levels that are sets of items (task.Itemized): the expr task's contracts,
// on a machine the kernels already score.
type shownTask struct {
	task.Interpreted
	env task.Stepper
}

// shownItems is every level's training items (held-out: half of them).
const shownItems = 12

// shownLengths are the context lengths of the items (0: the digits).
var shownLengths = [shownItems]int{0, record.MaxShown, 1, 8, 17, 3, 12, record.MaxShown, 5, 20, 2, 9}

func newShownTask(t testing.TB, levels string) shownTask {
	tk, err := calctask.Calc(levels, 0.3)
	require.NoError(t, err)
	require.Zero(t, task.Observations(tk), "an open-loop curriculum")
	return shownTask{tk.(task.Interpreted), tk.(task.Stepper)}
}

func (s shownTask) Unstaged()                {}
func (s shownTask) NewEnv(rows int) task.Env { return s.env.NewEnv(rows) }

// Levels are calc's, each showing up to record.MaxShown tokens.
func (s shownTask) Levels() []task.Level {
	levels := slices.Clone(s.Interpreted.Levels())
	for i := range levels {
		levels[i].Context = record.MaxShown
	}
	return levels
}

func (s shownTask) Items(level int, split task.Split) int {
	switch split {
	case task.Training:
		return shownItems
	case task.HeldOut:
		return shownItems / 2
	}
	return 0
}

func (s shownTask) DrawItem(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split, item int) task.Instance {
	in := s.Interpreted.Draw(key, round, episode, purpose, level, split)
	in.Item = int32(item)
	n := shownLengths[(item+level)%shownItems]
	if n == 0 {
		return in
	}
	in.NContext, in.Context = int32(n), [task.MaxContext]int32{}
	w := key.Block(round, episode, 7, purpose)
	for j := range n {
		in.Context[j] = int32((int(w[j%4]>>(j%24)) + 3*item + j) % s.Vocab()) // any of the task's tokens
	}
	return in
}

func (s shownTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, split task.Split) task.Instance {
	w := key.Block(round, episode, 6, purpose)
	return s.DrawItem(key, round, episode, purpose, level, split, int(rng.Below(w[0], uint32(s.Items(level, split)))))
}

func (s shownTask) Verify(in *task.Instance, program []int32) bool {
	return s.Score(in, program).Correct
}

var (
	_ task.Interpreted = shownTask{}
	_ task.Stepper     = shownTask{}
	_ task.Unstaged    = shownTask{}
	_ task.Itemized    = shownTask{}
)

// shownConfig is a config of the shown task's levels (readLevels), cut to a
// test's size, reading its contexts or taking in their bag.
func shownConfig(t testing.TB, context string, batch int) trainer.Config {
	cfg := calcConfig(t, readLevels, 0.3)
	cfg.Hidden, cfg.Batch, cfg.Seed, cfg.Context = 37, batch, 11, context
	return cfg
}

// shownItemsPlan is a plan's item weights for the shown task: skewed
// cumulative weights on levels 0 and 2, none on level 1 (its own Draw).
func shownItemsPlan() [][]float64 {
	cdf := func(w ...float64) []float64 {
		out, s, total := make([]float64, len(w)), 0.0, 0.0
		for _, x := range w {
			total += x
		}
		for i, x := range w {
			s += x
			out[i] = s / total
		}
		return out
	}
	return [][]float64{cdf(1, 5, 1, 1, 3, 1, 1, 4, 1, 1, 2, 1), nil, cdf(2, 1, 1, 6, 1, 1, 1, 1, 3, 1, 1, 2)}
}

// expectedTraining is the instance a CPU engine plays in episode b of plan
// p (cpu's draw: the level, then the item by its weights through DrawItem,
// else the task's Draw).
func expectedTraining(tk task.Task, key rng.Key, p trainer.Plan, b int) task.Instance {
	u := uint32(p.Update)
	lv := p.Level
	if lv < 0 {
		lv = enginekit.DrawLevel(p.Played, p.CDF, key, u, uint32(b))
	}
	if lv < len(p.Items) && len(p.Items[lv]) > 0 {
		item := enginekit.DrawItem(p.Items[lv], key, u, uint32(b))
		return tk.(task.Itemized).DrawItem(key, u, uint32(b), rng.PurposeTask, lv, task.Training, item)
	}
	return tk.Draw(key, u, uint32(b), rng.PurposeTask, lv, task.Training)
}

// gruRun is gru's Workspace teacher-forced on instances and their actions
// (step-major, T×n) with the loss weights dlogp, dent and dval (T×n): each
// step's log π of its action and the gradient of every parameter.
func gruRun(t *testing.T, l *gru.Layout, tk task.Task, params []float32, ins []task.Instance, acts []int32, dlogp, dent, dval []float32, T int) (logp, grad []float32) {
	n := len(ins)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	w, err := gru.NewWorkspace(l, n, T)
	require.NoError(t, err)
	w.Reset(n)
	var ctx [gru.MaxContext]int32
	for b := range ins {
		k := ins[b].WriteContext(ctx[:], task.CTX)
		w.SetContext(b, task.Stage(tk, int(ins[b].Level)), ctx[:k])
		for s := 0; s < T; s++ {
			w.SetAction(b, s, acts[s*n+b])
		}
	}
	w.Forward(params, dv, gru.Teacher, gru.Stream{})
	logp = make([]float32, T*n)
	for b := 0; b < n; b++ {
		for s := 0; s < T; s++ {
			logp[s*n+b] = w.Logp(b, s)
		}
	}
	copy(w.DLogp, dlogp)
	copy(w.DEnt, dent)
	copy(w.DValue, dval)
	grad = make([]float32, l.Size)
	tg := gru.NewTableGradient(l)
	w.Backward(params, dv, grad, tg.Buffer())
	tg.Apply(params, grad)
	return logp, grad
}

// TestGPUShownContextsAsCPU: one sampled training rollout of the shown task
// (contexts of 1 to 24 shown tokens, and digits, in one batch and in most
// tiles; one level embedding; item weights on two of its three levels), on
// the bag and reading (the planner's tiles and every EPT, 1x1 tiles reading
// one row each): every episode plays the CPU's instance (the item drawn by
// the plan's weights), its reward is the task's Env's bit for bit (float32,
// as training reads it) and its correct flag the Env's; a reading rollout
// runs as many reading steps as the batch's longest context, each row's
// inputs its context tokens at the last of them; logp, entropy, value and
// the gradient of every tensor are gru's Workspace's on the same
// contexts, actions and loss weights within golden.Tolerance.
func TestGPUShownContextsAsCPU(t *testing.T) {
	d := openGPU(t)
	for _, c := range []struct {
		context string
		tiles   []string
	}{{trainer.ContextBag, []string{"", "8x2"}}, {trainer.ContextRead, []string{"", "1x1", "2x2:l1", "4x2", "8x2"}}} {
		cfg := shownConfig(t, c.context, 48)
		tk := newShownTask(t, readLevels)
		for _, tile := range c.tiles {
			l, err := enginekit.NewLayout(cfg.Hidden, tk)
			require.NoError(t, err)
			require.Equal(t, 1, l.Levels, "one level embedding (task.Unstaged)")
			l.Read = c.context == trainer.ContextRead
			params := make([]float32, l.Size)
			l.Init(params, cfg.Seed)
			e := observingEngine(t, d, cfg, tk, l, params, tile)
			B, T := cfg.Batch, cfg.Steps
			p := trainer.Plan{Update: 5, Level: -1, Played: []int{0, 1, 2}, CDF: []float64{0.3, 0.6, 1}, Entropy: cfg.EntropyCoef, Items: shownItemsPlan()}
			var run observedRun
			logpa, ent, val, dlogp, dent, dval := make([]float32, T*B), make([]float32, T*B), make([]float32, T*B),
				make([]float32, T*B), make([]float32, T*B), make([]float32, T*B)
			grad, outcome := make([]float32, l.Size), make([]float64, 2*B)
			var inputs []int32
			require.NoError(t, d.do(func() error {
				draw, err := e.trainingDraw(p)
				if err != nil {
					return err
				}
				if err := e.drawWith(B, draw); err != nil {
					return err
				}
				if run, err = e.observedRollout(rolloutSpec{n: B, mode: modeSample, train: true, level: -1, purpose: rng.PurposeTask, round: 5,
					givenTasks: true, entropy: p.Entropy}); err != nil {
					return err
				}
				if err = e.gradients(); err != nil {
					return err
				}
				if err = e.finish(run.nb, true, p.Entropy); err != nil {
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
				if err = download(outcome, e.outcome); err != nil {
					return err
				}
				if l.Read {
					inputs = make([]int32, (e.last.reading+T+1)*B)
					return download(inputs, e.inputs)
				}
				return nil
			}))

			ins := make([]task.Instance, B)
			lengths, items := map[int]bool{}, map[[2]int32]bool{}
			longest := 0
			var ctx [gru.MaxContext]int32
			for b := range ins {
				ins[b] = expectedTraining(tk, e.key, p, b)
				require.Equal(t, ins[b], record.Unpack(run.tasks[record.Words*b:]), "tile %q episode %d: the CPU's instance", tile, b)
				k := ins[b].WriteContext(ctx[:], task.CTX) - 1
				lengths[k], items[[2]int32{ins[b].Level, ins[b].Item}] = true, true
				longest = max(longest, k)
			}
			require.GreaterOrEqual(t, len(lengths), 6, "contexts of several lengths: %v", lengths)
			require.Equal(t, record.MaxShown, longest)
			require.GreaterOrEqual(t, len(items), 12)

			// The rewards: the task's Env stepped on the GPU's actions.
			env := task.NewEnv(tk, B)
			ret := make([]float64, B)
			for b := range ins {
				env.Reset(b, &ins[b])
			}
			out := task.Transition{Obs: make([]int32, B), Reward: make([]float64, B), Done: make([]bool, B)}
			acts := make([]int32, T*B)
			for s := 0; s < T; s++ {
				step := run.tokens[(s+1)*B : (s+2)*B]
				env.Step(step, out)
				for b, a := range step {
					ret[b] += out.Reward[b]
					acts[s*B+b] = a
				}
			}
			rewarded := 0
			for b := range ins {
				require.Equal(t, math.Float64bits(float64(float32(ret[b]))), math.Float64bits(outcome[2*b]), "tile %q episode %d: reward", tile, b)
				require.Equal(t, env.Correct(b), outcome[2*b+1] == 1, "tile %q episode %d: correct", tile, b)
				if ret[b] != 0 {
					rewarded++
				}
			}
			require.Positive(t, rewarded)

			if l.Read {
				R := e.last.reading
				require.Equal(t, longest, R, "the batch's longest context: that many reading steps")
				for b := range ins {
					k := ins[b].WriteContext(ctx[:], task.CTX) - 1
					for r := 0; r < R; r++ {
						want := int32(task.CTX)
						if j := r - (R - k); j >= 0 {
							want = ctx[j]
						}
						require.Equal(t, want, inputs[r*B+b], "tile %q episode %d reading step %d", tile, b, r)
					}
				}
			}
			cl, cg := gruRun(t, l, tk, params, ins, acts, dlogp, dent, dval, T)
			re := golden.RelErr(logpa, f64s(cl))
			t.Logf("%s tile %q: logp rel err %.2e", c.context, tile, re)
			require.LessOrEqual(t, re, golden.Tolerance, "%s tile %q logp", c.context, tile)
			for _, tn := range l.Tensors {
				re := golden.RelErr(tn.View(grad), f64s(tn.View(cg)))
				t.Logf("%s tile %q grad %-18s rel err %.2e", c.context, tile, tn.Name, re)
				require.LessOrEqual(t, re, golden.Tolerance, "%s tile %q grad %s", c.context, tile, tn.Name)
			}
		}
	}
}

// TestGPUShownUpdate: Engine.Update on the shown task with a plan that
// weights items, records its episodes and replays programs (more of them
// than a batch, so that they play in two parts; programs that answer early,
// late and never): the record holds the CPU's instances, the programs the
// update sampled, their rewards (the Env's, bit for bit) and correct flags;
// the gradient the update clips and steps with is gru's for the sampled
// rows (the update's loss weights) plus gru's for the replayed ones
// (−coef/len(Replay) on each step up to the answer), within
// golden.Tolerance; the replay term is their negative log-likelihood and
// enters the total with its weight. Both the bag and reading.
func TestGPUShownUpdate(t *testing.T) {
	d := openGPU(t)
	for _, context := range []string{trainer.ContextBag, trainer.ContextRead} {
		cfg := shownConfig(t, context, 24)
		tk := newShownTask(t, readLevels)
		l, err := enginekit.NewLayout(cfg.Hidden, tk)
		require.NoError(t, err)
		l.Read = context == trainer.ContextRead
		params := make([]float32, l.Size)
		l.Init(params, cfg.Seed)
		e := observingEngine(t, d, cfg, tk, l, params, "")
		B, T := cfg.Batch, cfg.Steps
		const coef, nr = 0.7, 31
		key := rng.NewKey(99)
		replay := make([]task.Episode, nr)
		answer := tk.Answer()
		actions := []int32{}
		for a := int32(0); a < int32(tk.Vocab()); a++ {
			if !contains(tk.NotActions(), a) {
				actions = append(actions, a)
			}
		}
		for r := range replay {
			lv := r % 3
			replay[r].Instance = tk.DrawItem(key, 1, uint32(r), rng.PurposeTask, lv, task.Training, (r*5)%shownItems)
			prog := make([]int32, T)
			stop := []int{2, T - 1, T}[r%3] // answers at step 2, at the last step, or never
			for s := range prog {
				w := key.Block(2, uint32(r), uint32(s), rng.PurposeAction)
				prog[s] = actions[rng.Below(w[0], uint32(len(actions)))]
				if prog[s] == answer {
					prog[s] = actions[0]
				}
				if s >= stop {
					prog[s] = answer
				}
			}
			replay[r].Program = prog
		}
		rec := make([]task.Episode, B)
		p := trainer.Plan{Update: 3, Level: -1, Played: []int{0, 1, 2}, CDF: []float64{0.4, 0.7, 1}, Entropy: cfg.EntropyCoef, Items: shownItemsPlan(),
			Replay: replay, ReplayCoef: coef, Record: rec}
		grad, dlogp, dent, dval := make([]float32, l.Size), make([]float32, T*B), make([]float32, T*B), make([]float32, T*B)
		var st trainer.UpdateStats
		require.NoError(t, d.do(func() error {
			var dlErr error
			e.onCheck = func(at string) {
				if at != "adam" { // finish has run: the gradient is the one Adam steps with, and the loss weights the batch's
					return
				}
				for _, x := range []struct {
					dst []float32
					p   devPtr
				}{{grad, e.grad}, {dlogp, e.dlogp}, {dent, e.dent}, {dval, e.dval}} {
					if err := download(x.dst, x.p); err != nil && dlErr == nil {
						dlErr = err
					}
				}
			}
			defer func() { e.onCheck = nil }()
			var err error
			if st, err = e.update(p); err != nil {
				return err
			}
			return dlErr
		}))

		// The record: the CPU's instances, programs the Env rewards as the update did.
		ins, acts := make([]task.Instance, B), make([]int32, T*B)
		env := task.NewEnv(tk, B)
		solved, rsum := 0.0, 0.0
		for b := range rec {
			ins[b] = expectedTraining(tk, e.key, p, b)
			require.Equal(t, ins[b], rec[b].Instance, "%s episode %d: the CPU's instance", context, b)
			require.Len(t, rec[b].Program, T)
			env.Reset(b, &ins[b])
			for s, a := range rec[b].Program {
				acts[s*B+b] = a
			}
		}
		out := task.Transition{Obs: make([]int32, B), Reward: make([]float64, B), Done: make([]bool, B)}
		ret := make([]float64, B)
		for s := 0; s < T; s++ {
			step := make([]int32, B)
			for b := range rec {
				step[b] = rec[b].Program[s]
			}
			env.Step(step, out)
			for b := range ret {
				ret[b] += out.Reward[b]
			}
		}
		for b := range rec {
			require.Equal(t, math.Float64bits(float64(float32(ret[b]))), math.Float64bits(rec[b].Reward), "%s episode %d: reward", context, b)
			require.Equal(t, env.Correct(b), rec[b].Correct, "%s episode %d: correct", context, b)
			require.Equal(t, tk.Score(&ins[b], rec[b].Program).Correct, rec[b].Correct)
			rsum += rec[b].Reward
			if rec[b].Correct {
				solved++
			}
		}
		require.InDelta(t, rsum/float64(B), st.MeanReward, 1e-12, "the recorded rewards are the update's")
		require.Equal(t, solved/float64(B), st.SolveRate)

		// The gradient: the sampled rows' plus the replayed rows'.
		_, want := gruRun(t, l, tk, params, ins, acts, dlogp, dent, dval, T)
		rins, racts := make([]task.Instance, nr), make([]int32, T*nr)
		rdl, rzero := make([]float32, T*nr), make([]float32, T*nr)
		kept := make([]int, nr)
		for r := range replay {
			rins[r] = replay[r].Instance
			kept[r] = T
			for s, a := range replay[r].Program {
				racts[s*nr+r] = a
				if a == answer && kept[r] == T {
					kept[r] = s + 1
				}
			}
			for s := 0; s < kept[r]; s++ {
				rdl[s*nr+r] = float32(-coef / nr)
			}
		}
		require.Equal(t, []int{3, T, T}, []int{kept[0], kept[1], kept[2]}, "answers at step 2, at the last, and never")
		rlogp, rgrad := gruRun(t, l, tk, params, rins, racts, rdl, rzero, rzero, T)
		nll := 0.0
		for r := range replay {
			for s := 0; s < kept[r]; s++ {
				nll -= float64(rlogp[s*nr+r])
			}
		}
		nll /= nr
		var sq float64
		for i := range want {
			want[i] += rgrad[i]
			sq += float64(want[i]) * float64(want[i])
		}
		for _, tn := range l.Tensors {
			re := golden.RelErr(tn.View(grad), f64s(tn.View(want)))
			t.Logf("%s grad %-18s rel err %.2e", context, tn.Name, re)
			require.LessOrEqual(t, re, golden.Tolerance, "%s grad %s", context, tn.Name)
		}
		t.Logf("%s: replay NLL GPU %.6f gru %.6f, loss %+v, norm %.6f", context, st.Loss.Replay, nll, st.Loss, st.GradNorm)
		require.InEpsilon(t, nll, st.Loss.Replay, 1e-5)
		require.Equal(t, st.Loss.PG+cfg.ValueCoef*st.Loss.Value+p.Entropy*st.Loss.Entropy+coef*st.Loss.Replay, st.Loss.Total)
		require.InEpsilon(t, math.Sqrt(sq), st.GradNorm, 1e-4)
	}
}

func contains(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestGPUShownTrainingMatchesCPU: a few updates of the shown task through
// trainer.Trainer on both engines (every level drawn per episode, one level
// embedding, contexts of up to 24 shown tokens), bag and reading: the same
// loss, reward and gradient norm as TestGPUReadingTrainingMatchesCPU holds
// them (the first update's rewards and solved episodes exactly), and greedy
// evaluations of every level.
func TestGPUShownTrainingMatchesCPU(t *testing.T) {
	openGPU(t).Close()
	for _, context := range []string{trainer.ContextBag, trainer.ContextRead} {
		cfg := shownConfig(t, context, 64)
		cfg.Curriculum = "mixed"
		tk := newShownTask(t, readLevels)
		ce, err := cpu.NewWithTask(cfg, tk)
		require.NoError(t, err)
		t.Cleanup(ce.Close)
		host, err := trainer.New(cfg, tk, ce)
		require.NoError(t, err)
		ge, err := NewWithTask(cfg, tk)
		require.NoError(t, err)
		t.Cleanup(ge.Close)
		g, err := trainer.New(cfg, tk, ge)
		require.NoError(t, err)
		updatesMatch(t, context, host, g, 1, 3, true)
		want, err := ce.EvaluateAll(100, 9, task.HeldOut)
		require.NoError(t, err)
		got, err := ge.EvaluateAll(100, 9, task.HeldOut)
		require.NoError(t, err)
		for lv := range want {
			t.Logf("%s level %d: solve rate CPU %.3f GPU %.3f, reward %.4f %.4f", context, lv, want[lv].SolveRate, got[lv].SolveRate, want[lv].MeanReward, got[lv].MeanReward)
			require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.03, "level %d solve rate", lv)
			require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.03, "level %d reward", lv)
		}
	}
}

// TestGPURecordsSeedEpisodes: the seed task's instances are drawn in the
// rollout kernel; the record holds them (the task's Draw), the programs and
// their rewards and correct flags as the task scores them.
func TestGPURecordsSeedEpisodes(t *testing.T) {
	d := openGPU(t)
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Hidden, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain = 40, 32, 0, 0, 0
	e := testEngine(t, d, cfg, nil)
	rec := make([]task.Episode, cfg.Batch)
	p := trainer.Plan{Update: 2, Level: -1, Played: []int{0, 1, 2}, CDF: []float64{0.3, 0.6, 1}, Entropy: cfg.EntropyCoef, Record: rec}
	var st trainer.UpdateStats
	require.NoError(t, d.do(func() error { var err error; st, err = e.update(p); return err }))
	tk := e.task
	rsum := 0.0
	levels := map[int32]bool{}
	for b := range rec {
		lv := enginekit.DrawLevel(p.Played, p.CDF, e.key, 2, uint32(b))
		in := tk.Draw(e.key, 2, uint32(b), rng.PurposeTask, lv, task.Training)
		require.Equal(t, in, rec[b].Instance, "episode %d", b)
		o := task.Score(tk, &in, rec[b].Program)
		require.Equal(t, math.Float64bits(float64(float32(o.Reward))), math.Float64bits(rec[b].Reward), "episode %d", b)
		require.Equal(t, o.Correct, rec[b].Correct, "episode %d", b)
		rsum += rec[b].Reward
		levels[in.Level] = true
	}
	require.Len(t, levels, 3)
	require.InDelta(t, rsum/float64(cfg.Batch), st.MeanReward, 1e-12)
	require.Zero(t, st.Loss.Replay)
}

// TestGPURefusesItemsOfOtherTasks: a plan that weights items of a task whose
// levels are not sets of items is refused in one line, before any launch.
func TestGPURefusesItemsOfOtherTasks(t *testing.T) {
	d := openGPU(t)
	cfg := calcConfig(t, "a*b, a*b+c", -1)
	cfg.Batch, cfg.Hidden = 8, 16
	e := testEngine(t, d, cfg, nil)
	launched := 0
	e.onLaunch = func(string, *args) error { launched++; return nil }
	err := d.do(func() error {
		_, err := e.update(trainer.Plan{Update: 1, Level: 0, Items: [][]float64{{0.5, 1}}})
		return err
	})
	require.EqualError(t, err, "gpu: the plan weights the items of task calc, whose levels are not sets of items (task.Itemized)")
	require.Zero(t, launched)
}

// TestGPUReplayInterrupted: an update with replayed episodes interrupted
// before a part of them, or after them (before the batch's rollout, or
// before Adam), returns ErrInterrupted and changes neither the parameters
// nor Adam's state; the update then runs.
func TestGPUReplayInterrupted(t *testing.T) {
	d := openGPU(t)
	cfg := shownConfig(t, trainer.ContextRead, 8)
	tk := newShownTask(t, readLevels)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	l.Read = true
	params := make([]float32, l.Size)
	l.Init(params, cfg.Seed)
	e := observingEngine(t, d, cfg, tk, l, params, "")
	replay := make([]task.Episode, 19) // three parts of at most 8
	for r := range replay {
		replay[r] = task.Episode{Instance: tk.DrawItem(e.key, 1, uint32(r), rng.PurposeTask, r%3, task.Training, r%shownItems), Program: make([]int32, cfg.Steps)}
		for s := range replay[r].Program {
			replay[r].Program[s] = tk.Answer()
		}
	}
	p := trainer.Plan{Update: 1, Level: 1, Entropy: cfg.EntropyCoef, Replay: replay, ReplayCoef: 0.5, Record: make([]task.Episode, cfg.Batch)}
	for _, at := range []string{"replay", "rollout", "adam"} {
		for nth := 1; nth <= 2; nth++ {
			seen := 0
			stop := make(chan struct{})
			e.stop = stop
			e.onCheck = func(name string) {
				if name == at {
					if seen++; seen == nth {
						close(stop)
					}
				}
			}
			err := d.do(func() error { _, err := e.update(p); return err })
			e.stop, e.onCheck = nil, nil
			if seen < nth {
				require.NoError(t, err, "at %s #%d", at, nth) // a check passed once only
				t.Fatalf("%s is checked %d times", at, seen)
			}
			require.ErrorIs(t, err, trainer.ErrInterrupted, "at %s #%d", at, nth)
			got := make([]float32, l.Size)
			require.NoError(t, d.do(func() error { return e.getParams(got) }))
			require.Equal(t, params, got, "interrupted at %s #%d", at, nth)
			require.Zero(t, e.adamStep)
			if at != "replay" {
				break
			}
		}
	}
	var st trainer.UpdateStats
	require.NoError(t, d.do(func() error { var err error; st, err = e.update(p); return err }))
	require.Equal(t, 1, e.adamStep)
	require.Positive(t, st.Loss.Replay)
}

// TestGPURefusesADrawPastItsLevel: an instance the host draws that shows
// more context tokens than its level declares (the shown task on calc's
// levels, of 2 to 4 digits) is the update's error, the CPU engine's (its
// first episode's), never a record the reading steps could not hold.
func TestGPURefusesADrawPastItsLevel(t *testing.T) {
	openGPU(t).Close()
	cfg := shownConfig(t, trainer.ContextRead, 16)
	tk := undeclared{newShownTask(t, readLevels)}
	var errs []string
	onCPU := func(cfg trainer.Config, tk task.Task) (trainer.Engine, error) { return cpu.NewWithTask(cfg, tk) }
	for _, open := range []func(trainer.Config, task.Task) (trainer.Engine, error){onCPU, NewWithTask} {
		e, err := open(cfg, tk)
		require.NoError(t, err)
		t.Cleanup(e.Close)
		tr, err := trainer.New(cfg, tk, e)
		require.NoError(t, err)
		_, err = tr.Update()
		require.ErrorContains(t, err, "task drew a bad instance")
		require.ErrorContains(t, err, "declares (Level.Context")
		errs = append(errs, err.Error())
	}
	require.Equal(t, errs[0], errs[1], "the CPU's error")
}

// undeclared is the shown task on calc's levels, whose Context declares
// the digits only.
type undeclared struct{ shownTask }

func (u undeclared) Levels() []task.Level { return u.Interpreted.Levels() }

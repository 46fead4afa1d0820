//go:build cgo

package gpu

import (
	"reflect"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// walkTask is a Go game no kernel knows (task.Stepwise): walk from 0 to a
// target shown in the context with − and +, then say =. It observes the
// sign of position − target (3 observations), pays a small cost per move
// (rewards before the end: return-to-go differs from the return) and 1 at a
// correct =; level 0's target is 1 in a budget of 4, level 1's 1..3 in 6,
// so episodes end at different steps and some at their budget.
type walkTask struct {
	panicAt int // a game panics at this step (0: never)
}

const (
	walkDown, walkUp, walkSay = 0, 1, 2 // actions; tokens 3..5 are the targets 1..3, 6 the context end
	walkEnd                   = 6
)

func (walkTask) Name() string        { return "walk" }
func (walkTask) Vocab() int          { return 7 }
func (walkTask) ContextEnd() int32   { return walkEnd }
func (walkTask) NotActions() []int32 { return []int32{3, 4, 5, walkEnd} }
func (walkTask) Answer() int32       { return walkSay }
func (walkTask) HoldsOut() bool      { return false }
func (walkTask) TokenName(tok int32) string {
	return [...]string{"-", "+", "=", "1", "2", "3", "CTX"}[tok]
}
func (walkTask) Observations() int                { return 3 }
func (walkTask) ObservationName(obs int32) string { return [...]string{"below", "at", "above"}[obs] }
func (walkTask) Levels() []task.Level {
	return []task.Level{{Name: "one", Context: 1, Budget: 4, Shortest: 2}, {Name: "three", Context: 1, Budget: 6, Shortest: 4}}
}
func (walkTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	target := int64(1)
	if level > 0 {
		target = 1 + int64(rng.Below(key.Block(round, episode, 0, purpose)[0], 3))
	}
	in := task.Instance{Level: int32(level), Budget: int32(walkTask{}.Levels()[level].Budget), NContext: 1}
	in.Context[0] = int32(2 + target)
	in.Data[0] = target
	return in
}
func (w walkTask) NewGame() task.Game { return &walkGame{panicAt: w.panicAt} }

type walkGame struct {
	pos, target, steps, panicAt int
	correct                     bool
}

func (g *walkGame) sign() int32 {
	switch {
	case g.pos < g.target:
		return 0
	case g.pos == g.target:
		return 1
	}
	return 2
}

func (g *walkGame) Reset(in *task.Instance) int32 {
	g.pos, g.target, g.steps, g.correct = 0, int(in.Data[0]), 0, false
	return g.sign()
}

func (g *walkGame) Step(tok int32) (int32, float64, bool) {
	g.steps++
	if g.steps == g.panicAt {
		panic("the walk stumbled")
	}
	switch tok {
	case walkDown:
		g.pos--
	case walkUp:
		g.pos++
	case walkSay:
		g.correct = g.pos == g.target
		if g.correct {
			return g.sign(), 1, true
		}
		return g.sign(), 0, true
	}
	return g.sign(), -0.05, false
}

func (g *walkGame) Correct() bool { return g.correct }

// walkConfig is a small recipe for the walk task with estimator est
// ("" the default step baseline, "sum" the seed's, else a group estimator).
func walkConfig(est string) trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Steps, cfg.Batch, cfg.Hidden = "walk", 8, 48, 24
	cfg.TrainLevels = []int{0, 1}
	cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 0, 0, 0, 2
	switch est {
	case "sum":
		cfg.Baseline, cfg.MaskAfterAnswer = "sum", false
	case "":
	default:
		cfg.Estimator, cfg.Group = est, 4
	}
	return cfg
}

// walkRuns are the CPU's and the GPU's runs of cfg on the walk task.
func walkRuns(t *testing.T, cfg trainer.Config, tk task.Task) (*hostRun, *gpuRun) {
	ce, err := cpu.NewWithTask(cfg, tk)
	require.NoError(t, err)
	ctr, err := trainer.New(cfg, tk, ce)
	require.NoError(t, err)
	host := &hostRun{ce, ctr}
	t.Cleanup(host.Close)
	ge, err := newEngineWithTask(cfg, tk)
	require.NoError(t, err)
	gtr, err := trainer.New(cfg, tk, ge)
	require.NoError(t, err)
	g := &gpuRun{ge, gtr}
	t.Cleanup(g.Close)
	return host, g
}

// TestGPUHostSteppedTrainingMatchesCPU: a Go game the kernels do not know
// trains on the GPU with its game stepped on the host (observations fed
// back, rewards before the end, episodes ending at different steps), and
// matches the CPU engine: the first update's rewards and solved episodes
// exactly and its loss and norm to 1e-4, later updates as
// TestGPUCalcTrainingMatchesCPU holds them, with each estimator the host
// path runs (the step baseline with its mask, the seed's sum, a group's),
// then the greedy evaluations of both levels and the parameters.
func TestGPUHostSteppedTrainingMatchesCPU(t *testing.T) {
	openGPU(t).Close()
	for _, est := range []string{"", "sum", "rloo"} {
		cfg := walkConfig(est)
		host, g := walkRuns(t, cfg, walkTask{})
		require.Equal(t, scoreHost, g.e.scoreKind)
		require.Equal(t, 3, g.e.O)
		updatesMatch(t, "walk "+est, host, g, 1, 6, true)
		want, err := host.EvaluateAll(100, 3, task.HeldOut)
		require.NoError(t, err)
		got, err := g.EvaluateAll(100, 3, task.HeldOut)
		require.NoError(t, err)
		for lv := range want {
			t.Logf("%s level %d: solve rate CPU %.3f GPU %.3f, reward %.4f %.4f", est, lv, want[lv].SolveRate, got[lv].SolveRate, want[lv].MeanReward, got[lv].MeanReward)
			require.InDelta(t, want[lv].SolveRate, got[lv].SolveRate, 0.02, "level %d solve rate", lv)
			require.InDelta(t, want[lv].MeanReward, got[lv].MeanReward, 0.03, "level %d reward", lv)
		}
		pc := host.Params()
		pg, err := g.Params()
		require.NoError(t, err)
		worst := 0.0
		for i := range pc {
			worst = max(worst, float64(abs32(pc[i]-pg[i])))
		}
		t.Logf("%s: parameters after 6 updates differ by at most %.2g", est, worst)
		require.Less(t, worst, 5*cfg.LR, "the parameters stay within a few Adam steps of the CPU's")
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}

// TestGPUHostSteppedTaskLearns: the host path trains, not only matches:
// after 150 updates of the default recipe the greedy policy solves both
// levels of the walk far above its start.
func TestGPUHostSteppedTaskLearns(t *testing.T) {
	openGPU(t).Close()
	cfg := walkConfig("")
	cfg.Batch = 64
	_, g := walkRuns(t, cfg, walkTask{})
	before, err := g.EvaluateAll(200, 1, task.HeldOut)
	require.NoError(t, err)
	for u := 0; u < 150; u++ {
		_, err := g.Update()
		require.NoError(t, err)
	}
	after, err := g.EvaluateAll(200, 1, task.HeldOut)
	require.NoError(t, err)
	for lv := range after {
		t.Logf("level %d: greedy solve rate %.3f before, %.3f after", lv, before[lv].SolveRate, after[lv].SolveRate)
		require.Greater(t, after[lv].SolveRate, 0.9, "level %d", lv)
	}
}

// TestGPUHostSteppedRolloutStopsWhenAllAreDone: an evaluation, and a
// training rollout whose estimator masks the steps after an episode's end,
// run no step after every episode has ended (the interrupt check before
// each step counts them): level 0's budget is 4 of the rollout's 16 steps,
// and the steps run are those up to the last episode's end. The seed's sum
// baseline reads every step, so its training rollouts run all 16.
func TestGPUHostSteppedRolloutStopsWhenAllAreDone(t *testing.T) {
	d := openGPU(t)
	for _, est := range []string{"", "sum"} {
		cfg := walkConfig(est)
		cfg.Steps, cfg.TrainLevels = 16, []int{0}
		tk := walkTask{}
		e := testEngineOf(t, d, cfg, tk, observingLayout(t, cfg.Hidden, tk), nil)
		steps := 0
		e.onCheck = func(at string) {
			if at == "step" {
				steps++
			}
		}
		// allDone is the steps up to the one after which every one of n episodes had ended.
		allDone := func(n int) int {
			for s := 0; s < cfg.Steps; s++ {
				all := true
				for b := 0; b < n; b++ {
					all = all && e.games.done[s*n+b]
				}
				if all {
					return s + 1
				}
			}
			return cfg.Steps
		}
		require.NoError(t, d.do(func() error { _, err := e.evaluate(0, 20, 1, task.HeldOut); return err }))
		require.LessOrEqual(t, steps, 4, "%s: evaluation steps", est)
		require.Equal(t, allDone(20), steps, "%s: evaluation steps", est)
		steps = 0
		require.NoError(t, d.do(func() error {
			_, err := e.update(trainer.Plan{Update: 1, Level: 0, Entropy: cfg.EntropyCoef})
			return err
		}))
		want := allDone(cfg.Batch)
		require.LessOrEqual(t, want, 4)
		if est == "sum" {
			want = cfg.Steps
		}
		require.Equal(t, want, steps, "%s: training steps", est)
		require.Equal(t, want, e.last.steps, "%s: the backward's steps", est)
	}
}

// TestGPUHostSteppedTaskPanics: a panic in a game's Step (on a worker
// goroutine of the host's) is the task's *task.PanicError from Update and
// from an evaluation, not a crash; the engine still closes.
func TestGPUHostSteppedTaskPanics(t *testing.T) {
	openGPU(t).Close()
	cfg := walkConfig("")
	e, err := NewWithTask(cfg, walkTask{panicAt: 1})
	require.NoError(t, err)
	defer e.Close()
	_, err = e.Update(trainer.Plan{Update: 1, Level: 0, Entropy: cfg.EntropyCoef})
	var pe *task.PanicError
	require.ErrorAs(t, err, &pe)
	require.Equal(t, "walk", pe.Task)
	require.Equal(t, "the walk stumbled", pe.Value)
	require.NotContains(t, err.Error(), "\n")
	_, err = e.EvaluateAll(16, 1, task.HeldOut)
	require.ErrorAs(t, err, &pe)
}

// TestGPUHostSteppedBuffersReused: once built, a host-stepped rollout
// (training, then its gradient; an evaluation's; a greedy rollout's)
// allocates nothing on the host: the games' workers, buffers and Envs are
// the engine's, with observation fields and a vector too. (The host's draw,
// drawWith, is measured apart: its goroutines allocate per call, for every
// task the host draws.)
func TestGPUHostSteppedBuffersReused(t *testing.T) {
	d := openGPU(t)
	cfg := walkConfig("")
	for _, tk := range []task.Task{walkTask{}, fieldWalk{spec: fieldSpecs[0]}} {
		e := testEngineOf(t, d, cfg, tk, observingLayout(t, cfg.Hidden, tk), nil)
		var err error
		run := func(name string, n int, f func() error) {
			var allocs float64
			require.NoError(t, d.do(func() error {
				if err := e.drawOnHost(n, 1, rng.PurposeTask, func(b int) int { return b % 2 }, task.Training); err != nil {
					return err
				}
				allocs = testing.AllocsPerRun(3, func() {
					if err == nil {
						err = f()
					}
				})
				return err
			}))
			require.Zerof(t, allocs, "%s: %s allocates", tk.Name(), name)
		}
		run("training rollout", cfg.Batch, func() error {
			_, err := e.rollout(rolloutSpec{n: cfg.Batch, mode: modeSample, train: true, level: -1, round: 1, givenTasks: true, entropy: cfg.EntropyCoef})
			if err == nil {
				err = e.gradients()
			}
			return err
		})
		run("evaluation rollout", 5, func() error {
			_, err := e.rollout(rolloutSpec{n: 5, mode: modeGreedy, level: 1, round: 1, givenTasks: true, untilDone: true})
			return err
		})
		run("greedy rollout", 5, func() error {
			_, err := e.greedyRollout(rolloutSpec{n: 5, mode: modeGreedy, givenTasks: true})
			return err
		})

	}
}

// sizedWalk is walkTask whose games declare bytes of their own
// (task.GameSized).
type sizedWalk struct{ walkTask }

func (sizedWalk) GameBytes() int { return 5000 }

// TestHostGamesMemoryIsWhatTheyHold: hostGamesMemory, which buildEngine
// adds to hostMemory's shares before it opens the device, is the bytes of every buffer newHostGames
// allocates (each slice of hostGames but the workers' parts and channels),
// with a mask and without, with fields and a vector, and what a task's games
// declare they hold, one game per episode; a task the kernels play holds
// none. No device is needed.
func TestHostGamesMemoryIsWhatTheyHold(t *testing.T) {
	for _, tk := range []task.Task{walkTask{}, maskedWalk{}, fieldWalk{spec: fieldSpecs[0]}, sizedWalk{}} {
		cfg := walkConfig("")
		cfg.Task, cfg.EvalEvery, cfg.EvalBatch = tk.Name(), 5, 3*cfg.Batch
		e := &engine{cfg: cfg, task: tk, V: tk.Vocab(), T: cfg.Steps, B: cfg.Batch, maxN: maxEpisodes(cfg), O: 3, masks: task.Masks(tk)}
		e.check = task.NewChecker(tk)
		g, err := newHostGames(e)
		require.NoError(t, err)
		g.close()
		held := 0.0
		v := reflect.ValueOf(g).Elem()
		for i := 0; i < v.NumField(); i++ {
			f, name := v.Field(i), v.Type().Field(i).Name
			if f.Kind() != reflect.Slice || name == "parts" || name == "jobs" {
				continue
			}
			held += float64(f.Len()) * float64(f.Type().Elem().Size())
		}
		held += float64(e.maxN) * task.GameBytes(tk) // the task's games, one per episode
		m := hostGamesMemory(cfg, tk)
		require.Equal(t, held, m.Total(), tk.Name())
		require.Positive(t, m["eval_batch"], "%s: the evaluations' episodes", tk.Name())
	}
	recipe := trainer.DefaultRecipe()
	seed, err := recipe.OpenTask()
	require.NoError(t, err)
	require.Zero(t, hostGamesMemory(recipe, seed).Total())
}

// TestGPUHostSteppedRefusals: what the host-stepped path does not run is
// refused in one line before the device is opened: reading the context,
// replayed programs, PPO (with observation fields too: fields_test.go).
func TestGPUHostSteppedRefusals(t *testing.T) {
	for field, tweak := range map[string]func(*trainer.Config){
		"context": func(c *trainer.Config) { c.Context = trainer.ContextRead },
		"replay":  func(c *trainer.Config) { c.Replay = 10 },
		"estimator": func(c *trainer.Config) { // PPO replays its stored programs teacher-forced (gpu/ppo.go)
			c.Estimator, c.PPOEpochs, c.PPOMinibatches = trainer.EstimatorPPO, 2, 2
		},
	} {
		cfg := walkConfig("")
		tweak(&cfg)
		_, err := buildEngine(cfg, walkTask{}, func(task.Task) error { return nil }, "walk")
		var fe *trainer.FieldError
		require.ErrorAs(t, err, &fe, field)
		require.Equal(t, field, fe.Field)
		require.Contains(t, err.Error(), "stepped on the host")
		require.NotContains(t, err.Error(), "\n")
	}
}

// hostOnly is a task behind an interface that hides what the kernels play
// natively (task.Interpreted, the seed machine) but steps its Env: the
// GPU steps it on the host.
type hostOnly struct{ task.Task }

func (h hostOnly) NewEnv(rows int) task.Env { return task.NewEnv(h.Task, rows) }

// TestGPUHostSteppedIsTheNativeRollout: the host-stepped path runs the
// rollout kernel's math (hoststep.cu: the same gate product, heads and
// policy on the same counters): the calc task played through its Env on the
// host and natively by the kernels gives the same first update (rewards and
// solved episodes exactly, loss and gradient norm to 1e-6) and then the
// same training to rounding.
func TestGPUHostSteppedIsTheNativeRollout(t *testing.T) {
	openGPU(t).Close()
	cfg := calcConfig(t, "a+b, a*b, a*b+c*d", -1)
	cfg.Batch, cfg.Curriculum = 48, "mixed"
	native, err := newGPURun(cfg)
	require.NoError(t, err)
	t.Cleanup(native.Close)
	require.Equal(t, scoreCalc, native.e.scoreKind)
	tk := hostOnly{native.Task()}
	ge, err := newEngineWithTask(cfg, tk)
	require.NoError(t, err)
	t.Cleanup(ge.Close)
	require.Equal(t, scoreHost, ge.e.scoreKind)
	gtr, err := trainer.New(cfg, tk, ge)
	require.NoError(t, err)
	hosted := &gpuRun{ge, gtr}
	for u := 1; u <= 4; u++ {
		want, err := native.Update()
		require.NoError(t, err)
		got, err := hosted.Update()
		require.NoError(t, err)
		t.Logf("update %d: loss native %.7f host %.7f, reward %.4f %.4f, norm %.7f %.7f", u, want.Loss.Total, got.Loss.Total, want.MeanReward, got.MeanReward, want.GradNorm, got.GradNorm)
		tol := 1e-6
		if u > 1 {
			tol = 1e-3
		}
		if u == 1 {
			require.Equal(t, want.MeanReward, got.MeanReward)
			require.Equal(t, want.SolveRate, got.SolveRate)
		}
		require.InDelta(t, want.Loss.Total, got.Loss.Total, tol*max(1, want.Loss.Total), "update %d loss", u)
		require.InDelta(t, want.GradNorm, got.GradNorm, tol*max(1, want.GradNorm), "update %d norm", u)
	}
}

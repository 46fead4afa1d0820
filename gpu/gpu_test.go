//go:build cgo

package gpu

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/internal/golden"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// openGPU opens the GPU, or skips the test saying why; with
// SIMDRL_TEST_REQUIRE=cuda a missing GPU fails the test instead.
func openGPU(t testing.TB) *Device {
	t.Helper()
	d, err := Open()
	if err != nil {
		if slices.Contains(strings.Split(os.Getenv("SIMDRL_TEST_REQUIRE"), ","), "cuda") {
			t.Fatalf("SIMDRL_TEST_REQUIRE=cuda but the GPU cannot be used: %v", err)
		}
		t.Skipf("skipping the GPU test: %v (set SIMDRL_TEST_REQUIRE=cuda to fail instead)", err)
	}
	t.Cleanup(d.Close)
	t.Log(d.Describe())
	return d
}

// testEngine builds an engine for cfg and its task with params (nil: the
// seed's init).
func testEngine(t testing.TB, d *Device, cfg trainer.Config, params []float32) *engine {
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	l, err := enginekit.NewLayout(cfg.Hidden, tk)
	require.NoError(t, err)
	return testEngineOf(t, d, cfg, tk, l, params)
}

// testEngineOf is testEngine for task tk on layout l.
func testEngineOf(t testing.TB, d *Device, cfg trainer.Config, tk task.Task, l *gru.Layout, params []float32) *engine {
	if params == nil {
		params = make([]float32, l.Size)
		l.Init(params, cfg.Seed)
	}
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

// TestGPUTasksAndUniforms: the kernels' Philox draws the CPU's tasks (the
// whole instance record, as seedtask.FromEnv makes it), levels and sampling
// numbers bit for bit.
func TestGPUTasksAndUniforms(t *testing.T) {
	d := openGPU(t)
	const n, T = 5000, 6
	key := rng.NewKey(42)
	mix, cdf := packMix([]int{0, 1, 2}), [3]float64{0.2, 0.7, 1}
	tasks := make([]int32, record.Words*n)
	u := make([]float32, T*n)
	require.NoError(t, d.do(func() error {
		tb, err := d.alloc(4 * record.Words * n)
		if err != nil {
			return err
		}
		defer d.free(tb)
		ub, err := d.alloc(4 * T * n)
		if err != nil {
			return err
		}
		defer d.free(ub)
		var a args
		a.u32("k0", key[0]).u32("k1", key[1]).u32("round", 9).u32("purpose", uint32(rng.PurposeTask)).i32("fixed_level", -1).i32("mix", mix).
			i32("unlocked", 3).f64("cdf0", cdf[0]).f64("cdf1", cdf[1]).i32("n", n).ptr("tasks", tb)
		if err := d.launch("simdrl_draw_tasks", gridFor(n), block256, 0, &a); err != nil {
			return err
		}
		a.reset().u32("k0", key[0]).u32("k1", key[1]).u32("round", 9).i32("n", n).i32("T", T).ptr("u", ub)
		if err := d.launch("simdrl_action_uniforms", gridFor(n), block256, 0, &a); err != nil {
			return err
		}
		if err := download(tasks, tb); err != nil {
			return err
		}
		return download(u, ub)
	}))
	for b := 0; b < n; b++ {
		w := key.Block(9, uint32(b), 0, rng.PurposeLevel)[0]
		uu := float64(w) / (1 << 32)
		level := 2
		if uu < 0.2 {
			level = 0
		} else if uu < 0.7 {
			level = 1
		}
		want := seedtask.FromEnv(seed.DrawTask(key, 9, uint32(b), rng.PurposeTask, level))
		require.Equal(t, want, record.Unpack(tasks[record.Words*b:]), "instance of episode %d", b)
		for s := 0; s < T; s++ {
			require.Equal(t, key.Uniform(9, uint32(b), uint32(s), rng.PurposeAction), u[s*n+b])
		}
	}
}

// TestGPUEnvGolden: the environment kernel scores every golden case as the
// seed does, rewards bit for bit.
func TestGPUEnvGolden(t *testing.T) {
	d := openGPU(t)
	cases, err := golden.LoadEnv(golden.Dir())
	require.NoError(t, err)
	n, maxlen := len(cases), 1
	for _, c := range cases {
		maxlen = max(maxlen, len(c.Actions))
	}
	tasks, acts, lens := make([]int32, record.Words*n), make([]int32, n*maxlen), make([]int32, n)
	for i, c := range cases {
		in := seedtask.FromEnv(seed.Task{Level: c.Level, Digits: c.Digits})
		record.Pack(tasks[record.Words*i:], &in)
		copy(acts[i*maxlen:], c.Actions)
		lens[i] = int32(len(c.Actions))
	}
	reward, steps, correct := make([]float64, n), make([]int32, n), make([]int32, n)
	require.NoError(t, d.do(func() error {
		var bufs [6]devPtr
		sizes := []int{4 * record.Words * n, 4 * n * maxlen, 4 * n, 8 * n, 4 * n, 4 * n}
		for i := range bufs {
			var err error
			if bufs[i], err = d.alloc(sizes[i]); err != nil {
				return err
			}
			defer d.free(bufs[i])
		}
		if err := upload(bufs[0], tasks); err != nil {
			return err
		}
		if err := upload(bufs[1], acts); err != nil {
			return err
		}
		if err := upload(bufs[2], lens); err != nil {
			return err
		}
		var a args
		a.i32("scorer", scoreSeed).ptr("ops", 0).i32("V", seed.Vocab).f64("partial_credit", 0).ptr("tasks", bufs[0]).ptr("actions", bufs[1]).
			ptr("len", bufs[2]).i32("n", n).i32("maxlen", maxlen).ptr("reward", bufs[3]).ptr("steps", bufs[4]).ptr("correct", bufs[5])
		if err := d.launch("simdrl_env_score", gridFor(n), block256, 0, &a); err != nil {
			return err
		}
		if err := download(reward, bufs[3]); err != nil {
			return err
		}
		if err := download(steps, bufs[4]); err != nil {
			return err
		}
		return download(correct, bufs[5])
	}))
	for i, c := range cases {
		require.Equalf(t, math.Float64bits(c.Reward), math.Float64bits(reward[i]), "case %d: reward %v, want %v", i, reward[i], c.Reward)
		require.Equal(t, c.Steps, int(steps[i]), "case %d steps", i)
		o := seed.Run(seed.Task{Level: c.Level, Digits: c.Digits}, c.Actions)
		require.Equal(t, o.Correct, correct[i] != 0, "case %d correct", i)
	}
}

// teacher runs one golden batch teacher-forced with the seed's loss and
// returns logp, entropy and value (episode-major) and the gradient.
func (e *engine) teacher(b *golden.Batch) (logp, ent, val, grad []float32, err error) {
	B, T := len(b.Ctx), e.T
	tasks, tok, rew := make([]int32, record.Words*B), make([]int32, (T+1)*B), make([]float32, B)
	for i := 0; i < B; i++ {
		digits := b.Ctx[i][:len(b.Ctx[i])-1]
		in := task.Instance{Level: int32(b.Level[i]), Budget: seed.MaxSteps}
		in.NContext = int32(copy(in.Context[:], digits))
		o := interp.Operands{Vars: in.NContext}
		copy(o.Digits[:], digits)
		o.Put(in.Data[:])
		record.Pack(tasks[record.Words*i:], &in)
		tok[i] = seed.CTX
		for s := 0; s < T; s++ {
			tok[(s+1)*B+i] = b.Actions[i][s]
		}
		rew[i] = float32(b.Rewards[i])
	}
	mode := modeTeacher
	if err = e.uploadTasks(tasks); err == nil {
		err = upload(e.tokens, tok)
	}
	if e.O > 0 && err == nil {
		// The golden observations: step t's input is action t−1 (CTX at
		// t = 0) with Obs[i][t]; a reading model's policy steps follow its
		// reading steps' inputs (as many as the longest context), which
		// the kernel writes.
		R := e.readSteps(rolloutSpec{givenTasks: true})
		in := make([]int32, (R+T+1)*B)
		for i := 0; i < B; i++ {
			for s := 0; s < T; s++ {
				in[(R+s)*B+i] = e.l.Input(tok[s*B+i], b.Obs[i][s])
			}
		}
		err = upload(e.inputs, in)
		mode = modeTeacherInputs
	}
	if err == nil {
		err = upload(e.rewardsIn, rew)
	}
	var nb int
	if err == nil {
		nb, err = e.rollout(rolloutSpec{n: B, mode: mode, train: true, givenTasks: true, rewardsIn: true, level: 0, entropy: e.cfg.EntropyCoef})
	}
	if err == nil && groupEstimator(estimatorCode(e.cfg)) {
		// A group estimator's case gives each row's end step, as rewards_in its reward.
		if err = upload(e.epEnd, b.End); err == nil {
			var ne int
			ne, err = e.estimate(nb, e.cfg.EntropyCoef)
			nb += ne
		}
	}
	if err == nil {
		err = e.gradients()
	}
	if err == nil {
		err = e.finish(nb, true, e.cfg.EntropyCoef)
	}
	if err != nil {
		return
	}
	sm := func(p devPtr) []float32 {
		x := make([]float32, T*B)
		if err == nil {
			err = download(x, p)
		}
		out := make([]float32, T*B)
		for i := 0; i < B; i++ {
			for s := 0; s < T; s++ {
				out[i*T+s] = x[s*B+i]
			}
		}
		return out
	}
	logp, ent, val = sm(e.logpa), sm(e.ent), sm(e.val)
	grad = make([]float32, e.l.Size)
	if err == nil {
		err = download(grad, e.grad)
	}
	return
}

// TestGPUGoldenModel: forward, loss, gradients and two rounds of Adam on the
// golden batches, each tensor within golden.Tolerance of PyTorch.
func TestGPUGoldenModel(t *testing.T) { goldenModel(t, golden.Dir()) }

// TestGPUGoldenObservations is TestGPUGoldenModel on the golden cases whose
// inputs carry observations (testdata/golden-obs: obs_emb.weight last, the
// token table of V·O rows), the observations given (modeTeacherInputs).
func TestGPUGoldenObservations(t *testing.T) {
	m := goldenModel(t, golden.ObsDir())
	require.Positive(t, m.Observations, "%s holds no observations", golden.ObsDir())
}

// TestGPUGoldenReading is TestGPUGoldenModel on the golden cases of a
// reading model (testdata/golden-read, then golden-read-obs with
// observations given): h0 = tanh(stage_emb), then one GRU step per context
// token before the first action, contexts of mixed lengths in each batch.
func TestGPUGoldenReading(t *testing.T) {
	for _, dir := range golden.ReadDirs() {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			m := goldenModel(t, dir)
			require.Equal(t, "read", m.Context, "%s is no reading model", dir)
		})
	}
}

// TestGPUGoldenEstimators is TestGPUGoldenModel on the cases of each group
// estimator (testdata/golden-rloo, golden-grpo, golden-drgrpo): simdrl_estimate's
// loss terms, the gradients and Adam against PyTorch's.
func TestGPUGoldenEstimators(t *testing.T) {
	for _, dir := range golden.EstimatorDirs() {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			m := goldenModel(t, dir)
			require.Contains(t, trainer.GroupEstimators, m.Estimator, "%s holds no group estimator's cases", dir)
		})
	}
}

func goldenModel(t *testing.T, dir string) *golden.Model {
	d := openGPU(t)
	m, l, init, err := golden.LoadInit(dir)
	require.NoError(t, err)
	cfg := trainer.ReferenceRecipe()
	cfg.Batch, cfg.Steps, cfg.Hidden, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain = len(m.Batches[0].Ctx), m.Steps, m.Hidden, 1, 0, 0
	cfg.LR, cfg.Clip = m.Adam.LR, m.Adam.Clip
	if m.Estimator != "" {
		cfg.Estimator, cfg.Group, cfg.MaskAfterAnswer = m.Estimator, m.Group, m.Mask
	}
	tk, err := cfg.OpenTask()
	require.NoError(t, err)
	e := testEngineOf(t, d, cfg, tk, l, init)
	for bi := range m.Batches {
		b := &m.Batches[bi]
		var logp, ent, val, grad []float32
		require.NoError(t, d.do(func() error { var err error; logp, ent, val, grad, err = e.teacher(b); return err }))
		for name, pair := range map[string]struct {
			got  []float32
			want []float64
		}{"logp": {logp, b.Logp}, "entropy": {ent, b.Entropy}, "value": {val, b.Value}} {
			re := golden.RelErr(pair.got, pair.want)
			t.Logf("batch %d %-8s rel err %.2e", bi, name, re)
			require.LessOrEqual(t, re, golden.Tolerance, "batch %d %s", bi, name)
		}
		f := e.finHost
		total := f[finPG] + 0.5*f[finValue] + 0.01*f[finEntropy]
		for name, pair := range map[string][2]float64{"pg": {f[finPG], b.Loss.PG}, "value": {f[finValue], b.Loss.Value},
			"entropy": {f[finEntropy], b.Loss.Entropy}, "total": {total, b.Loss.Total}} {
			require.LessOrEqual(t, golden.RelErr([]float32{float32(pair[0])}, []float64{pair[1]}), golden.Tolerance, "batch %d loss %s", bi, name)
		}
		for _, tn := range l.Tensors {
			re := golden.RelErr(tn.View(grad), b.Grad[tn.Name])
			t.Logf("batch %d grad %-18s rel err %.2e", bi, tn.Name, re)
			require.LessOrEqual(t, re, golden.Tolerance, "batch %d grad %s", bi, tn.Name)
		}
	}
	// Two rounds of Adam from init, as TestGoldenAdam.
	var norms []float64
	require.NoError(t, d.do(func() error {
		if err := e.setParams(init); err != nil {
			return err
		}
		for step := 0; step < 2; step++ {
			for bi := range m.Batches {
				if _, _, _, _, err := e.teacher(&m.Batches[bi]); err != nil {
					return err
				}
				norms = append(norms, e.finHost[finNorm])
				if err := e.adam(); err != nil {
					return err
				}
				e.adamStep++
			}
		}
		return nil
	}))
	for i, n := range norms {
		require.InEpsilon(t, m.Adam.GradNormsBeforeClip[i], n, golden.Tolerance, "norm %d", i)
	}
	after := make([]float32, l.Size)
	require.NoError(t, d.do(func() error { return e.getParams(after) }))
	for _, tn := range l.Tensors {
		re := golden.RelErr(tn.View(after), m.Adam.After[tn.Name].Data)
		t.Logf("after %-18s rel err %.2e", tn.Name, re)
		require.LessOrEqual(t, re, golden.Tolerance, "after %s", tn.Name)
	}
	return m
}

// TestGPUGreedyMatchesCPU: for the same parameters and tasks, the GPU's
// greedy programs are the CPU's (an episode may differ only at a tie).
func TestGPUGreedyMatchesCPU(t *testing.T) {
	d := openGPU(t)
	cfg := trainer.ReferenceRecipe()
	cfg.Seed, cfg.EvalBatch = 3, 700
	e := testEngine(t, d, cfg, nil)
	l := e.l
	params := make([]float32, l.Size)
	l.Init(params, cfg.Seed)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	for level := 0; level < 3; level++ {
		const n, round = 700, 77
		var acts []int32
		require.NoError(t, d.do(func() error {
			var err error
			acts, err = e.greedyRollout(rolloutSpec{n: n, mode: modeGreedy, level: level, purpose: enginekit.EvalPurpose(level), round: round})
			return err
		}))
		w, err := gru.NewWorkspace(l, n, cfg.Steps)
		require.NoError(t, err)
		w.Reset(n)
		var ctx [gru.MaxContext]int32
		for b := 0; b < n; b++ {
			task := seed.DrawTask(e.key, round, uint32(b), enginekit.EvalPurpose(level), level)
			k := task.Context(ctx[:])
			w.SetContext(b, level, ctx[:k])
		}
		w.Forward(params, dv, gru.Greedy, gru.Stream{})
		ties := 0
		for b := 0; b < n; b++ {
			for s := 0; s < cfg.Steps; s++ {
				if got, want := acts[b*cfg.Steps+s], w.Action(b, s); got != want {
					require.InDeltaf(t, w.LogpOf(b, s, want), w.LogpOf(b, s, got), 1e-5, "level %d episode %d step %d: GPU %d, CPU %d", level, b, s, got, want)
					ties++
					break
				}
			}
		}
		t.Logf("level %d: %d episodes, %d differ at a near-tie", level, n, ties)
	}
}

// TestGPUTrainingMatchesCPU: a short seed-recipe run on both devices; the
// first update agrees to float32 rounding, later ones stay close.
func TestGPUTrainingMatchesCPU(t *testing.T) {
	d := openGPU(t)
	for _, recipe := range []string{"seed", "default"} {
		cfg, err := trainer.Recipe(recipe)
		require.NoError(t, err)
		cfg.Updates, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 8, 0, 0, 0, 2
		host, err := newHostRun(cfg)
		require.NoError(t, err)
		defer host.Close()
		e := testEngine(t, d, cfg, nil)
		tr := trainerOf(t, d, e, cfg)
		updatesMatch(t, recipe, host, tr, 1, cfg.Updates, false)
	}
}

// TestGPURun: the whole command path on the GPU.
func TestGPURun(t *testing.T) {
	openGPU(t).Close()
	cfg := trainer.ReferenceRecipe()
	cfg.Updates, cfg.EvalEvery, cfg.EvalBatch, cfg.FinalEpisodes, cfg.Explain = 10, 5, 64, 100, 2
	var out testWriter
	g, err := newGPURun(cfg)
	require.NoError(t, err)
	rep, err := trainer.Drive(g.tr, &out, trainer.Options{})
	require.NoError(t, err)
	require.Equal(t, "cuda", rep.Backend)
	require.Equal(t, 10, rep.Updates)
	require.Len(t, rep.Evaluations, 2)
	require.Len(t, rep.Explanations, 6)
	require.Contains(t, string(out), "Final greedy solve rates")
	t.Log(string(out))
}

type testWriter []byte

func (w *testWriter) Write(p []byte) (int, error) { *w = append(*w, p...); return len(p), nil }

// TestGPUShapesMatchCPU: one default-recipe update on both devices at hidden
// sizes that leave vector tails (37: rows of 37 and 111 floats) and at tile
// plans from one to 32 episodes per block, with a rollout longer than the
// seed's budget, and on the calc task; loss, gradient norm and the parameters
// after Adam agree with the CPU's within the golden tolerance, rewards exactly.
func TestGPUShapesMatchCPU(t *testing.T) {
	d := openGPU(t)
	// Steps 9 runs past the seed's budget of 7: the loss mask ends there. The
	// calc cases have 19 tokens and 6 levels, and 4500 episodes are drawn on
	// the host in parallel parts.
	for _, c := range []struct {
		hidden, batch, steps int
		task                 string
	}{{37, 5, 6, "seed"}, {37, 700, 6, "seed"}, {37, 8192, 6, "seed"}, {96, 4096, 6, "seed"}, {64, 333, 6, "seed"}, {37, 333, 9, "seed"},
		{37, 333, 0, "calc"}, {64, 4500, 0, "calc"}} {
		cfg := trainer.DefaultRecipe()
		if c.task == "calc" {
			cfg = calcConfig(t, "", -1)
		} else {
			cfg.Steps = c.steps
		}
		cfg.Hidden, cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = c.hidden, c.batch, 1, 0, 0, 0, 2
		host, err := newHostRun(cfg)
		require.NoError(t, err)
		want, err := host.Update()
		require.NoError(t, err)
		e := testEngine(t, d, cfg, nil)
		got, err := trainerOf(t, d, e, cfg).Update()
		require.NoError(t, err)
		params := make([]float32, e.l.Size)
		require.NoError(t, d.do(func() error { return e.getParams(params) }))
		want64 := make([]float64, len(host.Params()))
		for i, v := range host.Params() {
			want64[i] = float64(v)
		}
		re := golden.RelErr(params, want64)
		t.Logf("%s hidden %d batch %d (tiles of %d, %d): loss CPU %.7f GPU %.7f, norm %.6f %.6f, params rel err %.2e",
			c.task, c.hidden, c.batch, e.fwd.E, e.bwd.E, want.Loss.Total, got.Loss.Total, want.GradNorm, got.GradNorm, re)
		require.InDelta(t, want.Loss.Total, got.Loss.Total, golden.Tolerance*math.Max(1, math.Abs(want.Loss.Total)), "hidden %d batch %d loss", c.hidden, c.batch)
		require.InEpsilon(t, want.GradNorm, got.GradNorm, golden.Tolerance, "hidden %d batch %d grad norm", c.hidden, c.batch)
		require.InDelta(t, want.MeanReward, got.MeanReward, 1e-9, "hidden %d batch %d reward", c.hidden, c.batch)
		require.LessOrEqual(t, re, golden.Tolerance, "hidden %d batch %d parameters after the update", c.hidden, c.batch)
		host.Close()
	}
}

// TestGPUCheckpoints: a GPU checkpoint resumes bit-identically on the GPU and
// loads on the CPU with the same parameters; a CPU checkpoint resumes on the
// GPU and the next update agrees with the CPU's; a checkpoint of another
// shape is refused.
func TestGPUCheckpoints(t *testing.T) {
	openGPU(t).Close()
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads = 64, 8, 0, 0, 0, 2
	type stepper interface {
		Update() (trainer.UpdateStats, error)
		ParamSHA256() (string, error)
	}
	steps := func(g stepper, n int) (st trainer.UpdateStats) {
		for i := 0; i < n; i++ {
			var err error
			st, err = g.Update()
			require.NoError(t, err)
		}
		return st
	}
	hash := func(g stepper) string { h, err := g.ParamSHA256(); require.NoError(t, err); return h }

	ref, err := newGPURun(cfg)
	require.NoError(t, err)
	steps(ref, 7)
	want := hash(ref)
	ref.Close()

	a, err := newGPURun(cfg)
	require.NoError(t, err)
	steps(a, 3)
	f, err := a.Checkpoint()
	require.NoError(t, err)
	atThree := hash(a)
	a.Close()
	b, err := newGPURun(cfg)
	require.NoError(t, err)
	require.NoError(t, b.Restore(f))
	require.Equal(t, 3, b.Updates())
	require.Equal(t, atThree, hash(b))
	steps(b, 4)
	require.Equal(t, want, hash(b), "resumed = uninterrupted")
	b.Close()

	host, err := newHostRun(cfg)
	require.NoError(t, err)
	require.NoError(t, host.Restore(f))
	require.Equal(t, atThree, hash(host), "the GPU's checkpoint on the CPU")
	host.Close()

	// CPU → GPU.
	ct, err := newHostRun(cfg)
	require.NoError(t, err)
	defer ct.Close()
	steps(ct, 3)
	c, err := newGPURun(cfg)
	require.NoError(t, err)
	defer c.Close()
	fc, err := ct.Checkpoint()
	require.NoError(t, err)
	require.NoError(t, c.Restore(fc))
	require.Equal(t, hash(ct), hash(c))
	wantSt, err := ct.Update()
	require.NoError(t, err)
	gotSt := steps(c, 1)
	require.InDelta(t, wantSt.Loss.Total, gotSt.Loss.Total, 1e-4*math.Max(1, math.Abs(wantSt.Loss.Total)))
	require.InEpsilon(t, wantSt.GradNorm, gotSt.GradNorm, 1e-4)

	// -load: weights only.
	require.NoError(t, c.LoadWeights(f))
	require.Equal(t, atThree, hash(c))

	other := cfg
	other.Hidden = 64
	d, err := newGPURun(other)
	require.NoError(t, err)
	defer d.Close()
	require.ErrorContains(t, d.Restore(f), "shape")
}

// TestGPULoadActsAsSaved: a CPU run of one -seed saves; GPU engines of other
// seeds load the file and play the saver's greedy programs on the same tasks.
func TestGPULoadActsAsSaved(t *testing.T) {
	openGPU(t).Close()
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Threads, cfg.Seed = 64, 40, 0, 0, 0, 2, 2
	saver, err := newHostRun(cfg)
	require.NoError(t, err)
	defer saver.Close()
	for i := 0; i < cfg.Updates; i++ {
		_, err := saver.Update()
		require.NoError(t, err)
	}
	key := rng.NewKey(0x5eed_cafe)
	tasks := make([]task.Instance, 300)
	for i := range tasks {
		tasks[i] = seedtask.FromEnv(seed.DrawTask(key, 1, uint32(i), rng.PurposeTask, i%seed.NumLevels))
	}
	want, err := saver.GreedyPrograms(tasks)
	require.NoError(t, err)
	f, err := saver.Checkpoint()
	require.NoError(t, err)
	for _, seed := range []uint64{0, 9} {
		c := cfg
		c.Seed = seed
		g, err := newGPURun(c)
		require.NoError(t, err)
		before, err := g.GreedyPrograms(tasks)
		require.NoError(t, err)
		require.NotEqual(t, want, before, "seed %d: the untrained model already plays like the saved one", seed)
		require.NoError(t, g.LoadWeights(f))
		got, err := g.GreedyPrograms(tasks)
		require.NoError(t, err)
		require.Equalf(t, want, got, "GPU -load with -seed %d", seed)
		g.Close()
	}
}

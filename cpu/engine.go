package cpu

import (
	"slices"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Engine holds a model, its optimiser, a pool of workers and every buffer an
// update needs; after New, Update and the evaluations allocate nothing. Call
// Close to stop the workers.
type Engine struct {
	cfg    trainer.Config
	task   task.Task
	layout *gru.Layout
	model  *model // the parameters and their derived state; set only through model.set
	grad   []float32
	table  *gru.TableGradient // the update's token-table gradient, summed over chunks in order
	opt    *adam
	key    rng.Key
	pool   *pool

	train  trainJob
	replay replayJob
	eval   evalJob

	// Rollouts that stop (gru.Workspace.Retire): training's when its loss
	// leaves the steps after an episode's end out (the step baseline with
	// MaskAfterAnswer; the sum baseline weights every step, as the seed
	// does), the evaluations' always (they read only rewards). Either way
	// every result is bit-identical to a rollout of all T steps.
	stopTraining, stopEvaluating bool
	estimate                     enginekit.Estimator // cfg's (estimatorOf)
	liveSteps                    int64               // the training rollouts' computed steps, summed over updates

	// -estimator ppo's state (ppo.go), nil for the others; the group
	// estimators' diagnostics (Update).
	ppo    *ppo
	ppoJob ppoJob
	diag   trainer.Diagnostics
}

// New builds a CPU engine for cfg's task, opened through the registry
// (task.Open of cfg.Task and cfg.TaskSpec): NewWithTask of it.
func New(cfg trainer.Config) (*Engine, error) {
	t, err := cfg.OpenTask()
	if err != nil {
		return nil, err
	}
	return NewOpened(cfg, t)
}

// NewOpened is NewWithTask for a task that task.Open opened (Config.OpenTask),
// and so validated: it checks cfg against t without validating t again
// (trainer.Config.ValidateOpened), so that a run validates its task once.
func NewOpened(cfg trainer.Config, t task.Task) (*Engine, error) {
	if err := cfg.ValidateOpened(t); err != nil {
		return nil, err
	}
	return build(cfg, t)
}

// NewWithTask builds a CPU engine that trains t (a trainer.Engine: a
// trainer.Trainer of cfg and t drives it), which need not be
// registered (a program may define its own task; a checkpoint of it resumes
// through NewWithTask again, with the same task): the model initialised
// from cfg.Seed, cfg.Threads workers (at most one per chunk of the largest
// pass), chunks of cfg.Chunk episodes (at most the batch). cfg.Task must be
// t's name. A configuration that needs more memory than is available is
// refused before anything is allocated (trainer.ResourceError).
func NewWithTask(cfg trainer.Config, t task.Task) (*Engine, error) {
	if err := cfg.ValidateFor(t); err != nil {
		return nil, err
	}
	return build(cfg, t)
}

// build is NewWithTask of cfg, valid for t. Sizing the engine and making
// its Envs runs the task's code (NewEnv, NewGame, Observations): a panic
// there is the task's error, never a crash of the caller.
func build(cfg trainer.Config, t task.Task) (e *Engine, err error) {
	err = task.Guard(task.NameOf(t), "opened", func() error {
		e, err = buildGuarded(cfg, t)
		return err
	})
	return e, err
}

func buildGuarded(cfg trainer.Config, t task.Task) (*Engine, error) {
	p, err := newPlan(cfg, t)
	if err != nil {
		return nil, err
	}
	if err := checkMemory(cfg, t, p); err != nil {
		return nil, err
	}
	l := p.layout
	e := &Engine{
		cfg: cfg, task: t, layout: l,
		model: newModel(l),
		grad:  make([]float32, l.Size),
		table: gru.NewTableGradient(l),
		opt:   newAdam(l.Size, cfg.LR, cfg.Clip),
		key:   rng.NewKey(cfg.Seed),

		stopEvaluating: true,
	}
	e.estimate, e.stopTraining = estimatorOf(cfg)
	if cfg.Estimator == trainer.EstimatorPPO {
		e.ppo = newPPO(cfg, l.Size)
	}
	workers := make([]*worker, p.workers)
	for i := range workers {
		if workers[i], err = newWorker(p, t); err != nil {
			return nil, err
		}
	}
	e.pool = newPool(workers, p.chunk, p.slots)
	e.train.e, e.eval.e = e, e
	_ = e.model.set(func(p []float32) error { l.Init(p, cfg.Seed); return nil })
	return e, nil
}

// Close stops the worker goroutines.
func (e *Engine) Close() { e.pool.close() }

// Backend names the kernels the engine runs on.
func (e *Engine) Backend() string { return kernels.Backend() }

// Task is the task the engine was built for (trainer.New takes it).
func (e *Engine) Task() task.Task { return e.task }

// Describe adds nothing for the CPU.
func (e *Engine) Describe() string { return "" }

// Update runs training update p.Update (trainer.Engine): for every chunk of
// the batch (in parallel), draw tasks, roll out with sampling, the task
// stepped between the policy's steps, weight the loss and backpropagate into
// the chunk's gradient; sum the chunk gradients in chunk order; clip and take
// an Adam step.
func (e *Engine) Update(p trainer.Plan) (trainer.UpdateStats, error) {
	u := p.Update
	j := &e.train
	*j = trainJob{e: e, update: u, level: p.Level, played: p.Played, cdf: p.CDF, items: p.Items, record: p.Record,
		batch: e.cfg.Batch, entropyCoef: p.Entropy}
	if err := e.checkPlan(p); err != nil {
		return trainer.UpdateStats{Update: u, Level: j.level}, err
	}
	if e.ppo != nil {
		j.ppo = e.ppo
		return e.updatePPO(p, j)
	}
	clear(e.grad)
	e.table.Clear()
	if err := e.pool.run(j, e.cfg.Batch); err != nil {
		// Only the update's scratch (grad, table, the job) was touched.
		return trainer.UpdateStats{Update: u, Level: j.level}, err
	}
	if len(p.Replay) > 0 {
		rj := &e.replay
		*rj = replayJob{e: e, replays: p.Replay, coef: p.ReplayCoef}
		if err := e.pool.run(rj, len(p.Replay)); err != nil {
			return trainer.UpdateStats{Update: u, Level: j.level}, err
		}
		j.loss.Replay = rj.nll
		j.loss.Total += p.ReplayCoef * rj.nll
	}
	// The token-table part of the gradient once per update, not per chunk.
	e.table.Apply(e.model.params, e.grad)
	st := trainer.UpdateStats{Update: u, Level: j.level, Loss: j.loss,
		MeanReward: j.rewardSum / float64(j.batch), SolveRate: float64(j.solved) / float64(j.batch)}
	if err := enginekit.CheckLoss(u, st.Loss.Total); err != nil {
		return st, err // the failed update is not applied
	}
	if K := e.cfg.GroupSize(); slices.Contains(trainer.GroupEstimators, e.cfg.Estimator) {
		e.diag = trainer.Diagnostics{FlatGroups: float64(j.flat) / float64(j.batch/K), Steps: 1}
		st.Diagnostics = &e.diag
	}
	st.GradNorm = gradNorm(e.grad)
	if err := enginekit.CheckGradNorm(u, st.GradNorm); err != nil {
		return st, err
	}
	_ = e.model.set(func(p []float32) error { e.opt.step(p, e.grad, st.GradNorm); return nil })
	return st, nil
}

// trainJob is one update's pass over its chunks.
type trainJob struct {
	e             *Engine
	update, level int // level < 0: each episode draws its level (mixed curriculum)
	played        []int
	cdf           []float64
	items         [][]float64    // Plan.Items
	record        []task.Episode // Plan.Record
	batch         int
	entropyCoef   float64
	ppo           *ppo // set: store the rollout for PPO (ppo.go) rather than weigh and backpropagate it
	// totals, merged in chunk order
	rewardSum float64
	solved    int
	flat      int // groups whose returns are all equal
	loss      trainer.LossTerms
}

func (j *trainJob) work(w *worker, r *result) {
	e, first, n := j.e, r.first, r.n
	w.ws.Reset(n)
	K := e.cfg.GroupSize()
	for b := 0; b < n; b++ {
		if b%K != 0 { // the group's instance, drawn once (a chunk holds whole groups: first is a multiple of K)
			w.tasks[b] = w.tasks[b-1]
			w.setContext(b, &w.tasks[b])
			continue
		}
		instance := uint32((first + b) / K) // the one place that says which instance an episode plays
		level := j.level
		if level < 0 {
			level = enginekit.DrawLevel(j.played, j.cdf, e.key, uint32(j.update), instance)
		}
		w.tasks[b] = j.draw(instance, level)
		if r.err = w.check.Drawn(&w.tasks[b], level); r.err != nil {
			return
		}
		w.setContext(b, &w.tasks[b])
	}
	if !w.rollout(e.model, gru.Sample, gru.Stream{Key: e.key, Round: uint32(j.update), FirstEpisode: uint32(first)}, e.stopTraining) {
		r.cut = true
		return
	}
	w.steps.returns(n, w.ws.T, w.rewards[:n])
	r.live = w.ws.LiveSteps()
	r.rsum = 0
	for b := 0; b < n; b++ {
		// the float64 return, which says what the task paid where float32 says +Inf
		if r.err = w.check.Reward(w.steps.episodeReturn(n, w.ws.T, b), w.tasks[b].Level); r.err != nil {
			return
		}
		r.rsum += float64(w.rewards[b])
		r.solved[b] = w.env.Correct(b)
	}
	if j.record != nil {
		for b := 0; b < n; b++ {
			ep := &j.record[first+b]
			ep.Instance, ep.Reward, ep.Correct = w.tasks[b], float64(w.rewards[b]), r.solved[b]
			copy(ep.Program, w.episodeProgram(b))
		}
	}
	if j.ppo != nil {
		j.ppo.store(w, first, n)
		return
	}
	r.flat = 0
	for g := 0; g < n; g += K {
		if enginekit.Flat(w.rewards[g : g+K]) {
			r.flat++
		}
	}
	clear(r.grad)
	r.table.Clear()
	// loss weights depend only on this chunk (and its whole groups); the loss terms are merged in order.
	s := enginekit.LossScale{Batch: j.batch, ValueCoef: e.cfg.ValueCoef, EntropyCoef: j.entropyCoef, Mask: e.cfg.MaskAfterAnswer}
	r.loss = termsOf(e.estimate(chunkEpisodes(w.ws, &w.steps, w.rewards[:n], K), s, weightsOf(w.ws)))
	r.cut = !w.ws.BackwardUntil(e.model.params, e.model.derived, r.grad, r.table.Buffer(), w.interrupt)
}

// draw is instance number instance (an episode's, or its group's) at
// level: an item the plan weights (Plan.Items) through
// task.Itemized.DrawItem, else the task's Draw.
func (j *trainJob) draw(instance uint32, level int) task.Instance {
	e := j.e
	if level < len(j.items) && len(j.items[level]) > 0 {
		item := enginekit.DrawItem(j.items[level], e.key, uint32(j.update), instance)
		return e.task.(task.Itemized).DrawItem(e.key, uint32(j.update), instance, rng.PurposeTask, level, task.Training, item)
	}
	return e.task.Draw(e.key, uint32(j.update), instance, rng.PurposeTask, level, task.Training)
}

func (j *trainJob) merge(r *result) {
	j.rewardSum += r.rsum
	j.e.liveSteps += int64(r.live)
	for _, s := range r.solved[:r.n] {
		if s {
			j.solved++
		}
	}
	if j.ppo != nil {
		return // stored: nothing to add
	}
	j.flat += r.flat
	addLoss(&j.loss, r.loss)
	kernels.Add(j.e.grad, r.grad)
	kernels.Add(j.e.table.Buffer(), r.table.Buffer())
}

package trainer

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/rng"
)

// Trainer holds a model, its optimiser, a pool of workers and every buffer an
// update needs; after New, Update and Evaluate allocate nothing. Call Close
// to stop the workers.
type Trainer struct {
	cfg    Config
	Layout *gru.Layout
	model  *model    // the parameters and their derived state; set only through model.set
	grad   []float32 // the update's gradient, summed over chunks in order
	dTable []float32 // the update's token-table gradient, likewise
	opt    *Adam
	key    rng.Key
	update int
	pool   *pool

	cur *Curriculum

	train trainJob
	eval  evalJob
}

// UpdateStats describes one update.
type UpdateStats struct {
	Update     int
	Stage      int
	MeanReward float64 // the seed's "acc"
	SolveRate  float64 // fraction of episodes answered correctly
	Loss       LossTerms
	GradNorm   float64 // before clipping
}

// New builds a trainer: the model initialised from cfg.Seed, cfg.Threads
// workers (at most one per chunk of the largest pass), chunks of cfg.Chunk
// episodes (at most the batch). A configuration that needs more memory than
// is available is refused before anything is allocated (ResourceError).
func New(cfg Config) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := CheckMemory(cfg); err != nil {
		return nil, err
	}
	l, err := gru.NewLayout(gru.Config{Vocab: env.Vocab, Hidden: cfg.Hidden, Stages: env.NumStages})
	if err != nil {
		return nil, err
	}
	t := &Trainer{
		cfg: cfg, Layout: l,
		model:  newModel(l),
		grad:   make([]float32, l.Size),
		dTable: make([]float32, l.Vocab*3*l.Hidden),
		opt:    NewAdam(l.Size, cfg.LR, cfg.Clip),
		key:    rng.NewKey(cfg.Seed),
	}
	workers := make([]*worker, cfg.workers())
	for i := range workers {
		if workers[i], err = newWorker(l, cfg.chunkSize(), cfg.Steps); err != nil {
			return nil, err
		}
	}
	t.pool = newPool(workers, cfg.chunkSize(), cfg.largestPass())
	t.train.t, t.eval.t = t, t
	t.cur = NewCurriculum(cfg)
	_ = t.model.set(func(p []float32) error { l.Init(p, cfg.Seed); return nil })
	return t, nil
}

// Close stops the worker goroutines.
func (t *Trainer) Close() { t.pool.close() }

// Backend names the kernels the trainer runs on.
func (t *Trainer) Backend() string { return kernels.Backend() }

// Config is the trainer's configuration.
func (t *Trainer) Config() Config { return t.cfg }

// Updates is the number of updates applied so far.
func (t *Trainer) Updates() int { return t.update }

// Update runs one training update: for every chunk of the batch (in
// parallel), draw tasks, roll out with sampling, score the programs, weight
// the loss and backpropagate into the chunk's gradient; sum the chunk
// gradients in chunk order; clip and take an Adam step.
func (t *Trainer) Update() (UpdateStats, error) {
	t.update++
	u := t.update
	j := &t.train
	*j = trainJob{t: t, update: u, stage: t.cur.StageOf(u), batch: t.cfg.Batch, entropyCoef: t.cfg.EntropyAt(u)}
	clear(t.grad)
	clear(t.dTable)
	t.pool.run(j, t.cfg.Batch)
	// The token-table part of the gradient once per update, not per chunk.
	t.pool.workers[0].ws.ApplyTableGradient(t.model.params, t.dTable, t.grad)
	st := UpdateStats{Update: u, Stage: j.stage, Loss: j.loss,
		MeanReward: j.rewardSum / float64(j.batch), SolveRate: float64(j.solved) / float64(j.batch)}
	if math.IsNaN(st.Loss.Total) || math.IsInf(st.Loss.Total, 0) {
		t.update-- // the failed update is not applied
		return st, fmt.Errorf("update %d: the loss is %v; parameters left as after update %d", u, st.Loss.Total, u-1)
	}
	st.GradNorm = GradNorm(t.grad)
	if math.IsNaN(st.GradNorm) || math.IsInf(st.GradNorm, 0) {
		t.update--
		return st, fmt.Errorf("update %d: the gradient norm is %v; parameters left as after update %d", u, st.GradNorm, u-1)
	}
	_ = t.model.set(t.step)
	return st, nil
}

// step is the optimiser step on the update's gradient (through model.set).
func (t *Trainer) step(params []float32) error {
	t.opt.Step(params, t.grad)
	return nil
}

// Params is the model's flat parameter buffer, in state_dict order; read it,
// never write it (the derived state would not follow).
func (t *Trainer) Params() []float32 { return t.model.params }

// Curriculum is the trainer's curriculum.
func (t *Trainer) Curriculum() *Curriculum { return t.cur }

// Training names the stages an update trained (Curriculum.Label).
func (t *Trainer) Training(st UpdateStats) string { return t.cur.Label(st.Stage) }

// ObserveEval hands a greedy evaluation to the curriculum.
func (t *Trainer) ObserveEval(ev [env.NumStages]EvalResult) { t.cur.Observe(ev) }

// Solved reports that the curriculum's stop criterion is met.
func (t *Trainer) Solved() bool { return t.cur.Solved() }

// trainJob is one update's pass over its chunks.
type trainJob struct {
	t             *Trainer
	update, stage int // stage < 0: each episode draws its stage (mixed curriculum)
	batch         int
	entropyCoef   float64
	// totals, merged in chunk order
	rewardSum float64
	solved    int
	loss      LossTerms
}

func (j *trainJob) work(w *worker, r *result) {
	t, first, n := j.t, r.first, r.n
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		stage := j.stage
		if stage < 0 {
			stage = t.cur.DrawStage(t.key, uint32(j.update), uint32(first+b))
		}
		w.tasks[b] = env.DrawTask(t.key, uint32(j.update), uint32(first+b), rng.PurposeTask, stage)
		w.setContext(b, w.tasks[b])
	}
	w.ws.Forward(t.model.params, t.model.derived, gru.Sample, gru.Stream{Key: t.key, Round: uint32(j.update), FirstEpisode: uint32(first)})
	r.rsum = 0
	for b := 0; b < n; b++ {
		o := env.Run(w.tasks[b], w.episodeProgram(b))
		w.rewards[b] = float32(o.Reward)
		r.rsum += float64(w.rewards[b])
		r.solved[b] = o.Correct
	}
	clear(r.grad)
	clear(r.dTable)
	// loss weights depend only on this chunk; the loss terms are merged in order.
	if t.cfg.Baseline == "step" {
		r.loss = stepLoss(w.ws, w.rewards[:n], j.batch, t.cfg.ValueCoef, j.entropyCoef, t.cfg.MaskAfterAnswer)
	} else {
		r.loss = seedLoss(w.ws, w.rewards[:n], j.batch, t.cfg.ValueCoef, j.entropyCoef)
	}
	w.ws.Backward(t.model.params, t.model.derived, r.grad, r.dTable)
}

func (j *trainJob) merge(r *result) {
	j.rewardSum += r.rsum
	for _, s := range r.solved[:r.n] {
		if s {
			j.solved++
		}
	}
	j.loss.add(r.loss)
	kernels.Add(j.t.grad, r.grad)
	kernels.Add(j.t.dTable, r.dTable)
}

// ParamSHA256 hashes the parameters (HashParams).
func (t *Trainer) ParamSHA256() string { return HashParams(t.model.params) }

// HashParams hashes parameters as little-endian float32 in state_dict order:
// equal hashes mean bit-identical models, on any engine.
func HashParams(params []float32) string {
	h := sha256.New()
	var buf [4]byte
	for _, p := range params {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(p))
		h.Write(buf[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

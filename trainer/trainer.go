package trainer

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
)

// Trainer holds a model, its optimiser and every buffer an update needs; after
// New, Update and Evaluate allocate nothing.
type Trainer struct {
	cfg     Config
	Layout  *gru.Layout
	Params  []float32
	grad    []float32 // the update's gradient, summed over chunks in order
	chunkG  []float32 // one chunk's gradient
	opt     *Adam
	derived *gru.Derived
	ws      *gru.Workspace
	key     rng.Key
	update  int

	tasks   []env.Task // one chunk's tasks
	rewards []float32  // one chunk's rewards
	program []int32    // one episode's actions
	ctx     [gru.MaxContext]int32
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

// New builds a trainer: the model initialised from cfg.Seed.
func New(cfg Config) (*Trainer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l, err := gru.NewLayout(gru.Config{Vocab: env.Vocab, Hidden: cfg.Hidden, Stages: env.NumStages})
	if err != nil {
		return nil, err
	}
	chunk := min(cfg.Chunk, max(cfg.Batch, cfg.EvalBatch, cfg.FinalEpisodes))
	ws, err := gru.NewWorkspace(l, chunk, cfg.Steps)
	if err != nil {
		return nil, err
	}
	t := &Trainer{
		cfg: cfg, Layout: l,
		Params:  make([]float32, l.Size),
		grad:    make([]float32, l.Size),
		chunkG:  make([]float32, l.Size),
		opt:     NewAdam(l.Size, cfg.LR, cfg.Clip),
		derived: gru.NewDerived(l),
		ws:      ws,
		key:     rng.NewKey(cfg.Seed),
		tasks:   make([]env.Task, chunk),
		rewards: make([]float32, chunk),
		program: make([]int32, cfg.Steps),
	}
	l.Init(t.Params, cfg.Seed)
	t.derived.Compute(l, t.Params)
	return t, nil
}

// Config is the trainer's configuration.
func (t *Trainer) Config() Config { return t.cfg }

// Updates is the number of updates applied so far.
func (t *Trainer) Updates() int { return t.update }

// Update runs one training update: for every chunk of the batch, draw tasks,
// roll out with sampling, score the programs, weight the loss, and backpropagate
// into the chunk's gradient; sum the chunk gradients in order; clip and step.
func (t *Trainer) Update() (UpdateStats, error) {
	t.update++
	u := t.update
	stage := t.cfg.StageAt(u)
	st := UpdateStats{Update: u, Stage: stage}
	clear(t.grad)
	B := t.cfg.Batch
	var rsum float64
	var solved int
	for first := 0; first < B; first += t.ws.Cap {
		n := min(t.ws.Cap, B-first)
		t.ws.Reset(n)
		for b := 0; b < n; b++ {
			t.tasks[b] = env.DrawTask(t.key, uint32(u), uint32(first+b), rng.PurposeTask, stage)
			t.setContext(b, t.tasks[b])
		}
		t.ws.Forward(t.Params, t.derived, gru.Sample, gru.Stream{Key: t.key, Round: uint32(u), FirstEpisode: uint32(first)})
		for b := 0; b < n; b++ {
			o := env.Run(t.tasks[b], t.episodeProgram(b))
			t.rewards[b] = float32(o.Reward)
			rsum += float64(t.rewards[b])
			if o.Correct {
				solved++
			}
		}
		st.Loss.add(seedLoss(t.ws, t.rewards[:n], B, t.cfg.ValueCoef, t.cfg.EntropyCoef))
		clear(t.chunkG)
		t.ws.Backward(t.Params, t.derived, t.chunkG)
		for i, g := range t.chunkG {
			t.grad[i] += g
		}
	}
	st.MeanReward = rsum / float64(B)
	st.SolveRate = float64(solved) / float64(B)
	if math.IsNaN(st.Loss.Total) || math.IsInf(st.Loss.Total, 0) {
		return st, fmt.Errorf("update %d: the loss is %v; parameters left as after update %d", u, st.Loss.Total, u-1)
	}
	st.GradNorm = GradNorm(t.grad)
	if math.IsNaN(st.GradNorm) || math.IsInf(st.GradNorm, 0) {
		return st, fmt.Errorf("update %d: the gradient norm is %v; parameters left as after update %d", u, st.GradNorm, u-1)
	}
	t.opt.Step(t.Params, t.grad)
	t.derived.Compute(t.Layout, t.Params)
	return st, nil
}

func (t *Trainer) setContext(b int, task env.Task) {
	k := task.Context(t.ctx[:])
	t.ws.SetContext(b, task.Stage, t.ctx[:k])
}

// episodeProgram gathers episode b's actions (stored step-major) in order.
func (t *Trainer) episodeProgram(b int) []int32 {
	for s := range t.program {
		t.program[s] = t.ws.Action(b, s)
	}
	return t.program
}

// ParamSHA256 hashes the parameters as little-endian float32 in state_dict
// order: equal hashes mean bit-identical models.
func (t *Trainer) ParamSHA256() string {
	h := sha256.New()
	var buf [4]byte
	for _, p := range t.Params {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(p))
		h.Write(buf[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

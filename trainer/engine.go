package trainer

import (
	"fmt"
	"math"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
)

// Engine is what the training loop drives: cpu.Engine or gpu.Engine. Both
// use the same Curriculum, random streams and evaluation rounds, so the
// loop, its output and its report are one. Every method that touches the
// model may fail (a GPU can); the CPU's never do.
type Engine interface {
	Config() Config
	Task() task.Task
	Backend() string
	Describe() string // an extra line about the device, or ""
	Curriculum() *Curriculum
	Updates() int
	Update() (UpdateStats, error)
	// EvaluateAll plays episodes greedy episodes of every level on round of
	// the evaluation stream, drawn from split; one result per level.
	EvaluateAll(episodes int, round uint32, split task.Split) ([]EvalResult, error)
	// GreedyPrograms plays the given instances greedily: len(ins)×Steps
	// tokens, episode-major. The instances do not depend on the seed, so
	// models and engines can be compared on the same episodes.
	GreedyPrograms(ins []task.Instance) ([]int32, error)
	ParamSHA256() (string, error)
	// Checkpoint captures everything needed to continue bit-identically.
	Checkpoint() (*checkpoint.File, error)
	// Restore continues from a checkpoint of the same configuration (any
	// engine's): parameters, Adam's moments and step, update counter,
	// curriculum (-resume).
	Restore(f *checkpoint.File) error
	// LoadWeights replaces the parameters by f's, leaving the optimiser and
	// the counters as they are (-load).
	LoadWeights(f *checkpoint.File) error
	// SetInterrupt makes Update, EvaluateAll and GreedyPrograms stop at
	// their next boundary (between chunks on the CPU, kernel launches and
	// host-drawn parts on the GPU) once stop is closed, returning an error
	// for which errors.Is(err, ErrInterrupted). An interrupted call changes
	// nothing: parameters, optimiser, update counter and curriculum stay as
	// after the last completed update. nil: never. Call it between calls.
	SetInterrupt(stop <-chan struct{})
	Close()
}

// UpdateStats describes one update.
type UpdateStats struct {
	Update     int
	Stage      int // the update's stage, or −1 when each episode drew its own
	MeanReward float64
	SolveRate  float64 // fraction of episodes answered correctly
	Loss       LossTerms
	GradNorm   float64 // before clipping
}

// LossTerms are the loss terms over a batch (see cpu/loss.go for each
// baseline's definition).
type LossTerms struct {
	PG, Value, Entropy, Total float64
}

// Add accumulates another chunk's share of the terms.
func (l *LossTerms) Add(o LossTerms) {
	l.PG += o.PG
	l.Value += o.Value
	l.Entropy += o.Entropy
	l.Total += o.Total
}

// CheckLoss refuses update u when its loss is not finite: every engine
// skips the optimiser step then and reports the update it could not apply.
func CheckLoss(u int, loss float64) error {
	if math.IsNaN(loss) || math.IsInf(loss, 0) {
		return fmt.Errorf("update %d: the loss is %v; parameters left as after update %d", u, loss, u-1)
	}
	return nil
}

// CheckGradNorm refuses update u when its gradient norm is not finite.
func CheckGradNorm(u int, norm float64) error {
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		return fmt.Errorf("update %d: the gradient norm is %v; parameters left as after update %d", u, norm, u-1)
	}
	return nil
}

// Adam's constants, as torch.optim.Adam's defaults; both engines use them.
const (
	AdamBeta1 = 0.9
	AdamBeta2 = 0.999
	AdamEps   = 1e-8
)

// NewLayout is the parameter layout of cfg's model for task t: its
// vocabulary and one level embedding per level; the same on every engine.
func NewLayout(cfg Config, t task.Task) (*gru.Layout, error) {
	return gru.NewLayout(gru.Config{Vocab: t.Vocab(), Hidden: cfg.Hidden, Stages: len(t.Levels()), NotActions: t.NotActions()})
}

package trainer

import (
	"github.com/simdrl/simdrl/checkpoint"
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

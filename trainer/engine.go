package trainer

import (
	"github.com/simdrl/simdrl/task"
)

// Engine is a driver: the model on one device (cpu.Engine, gpu.Engine),
// which a Trainer drives. The Trainer owns everything else of the run (the
// config, the task, the curriculum, the update counter, the checkpoint,
// explanations and the report); an engine built for a config and task plays
// and trains what it is told. Every method that touches the model may fail
// (a GPU can); the CPU's never do.
type Engine interface {
	Backend() string  // the kernels it runs on, for the report
	Describe() string // an extra line about the device, or ""
	// Update runs training update p.Update (1-based: the round of the
	// training stream) as p says and takes one Adam step; a failed or
	// interrupted update changes neither parameters nor moments.
	Update(p Plan) (UpdateStats, error)
	// EvaluateAll plays episodes greedy episodes of every level on round of
	// the evaluation stream, drawn from split; one result per level.
	EvaluateAll(episodes int, round uint32, split task.Split) ([]EvalResult, error)
	// GreedyPrograms plays the given instances greedily: len(ins)×Steps
	// tokens, episode-major. The instances do not depend on the seed, so
	// models and engines can be compared on the same episodes.
	GreedyPrograms(ins []task.Instance) ([]int32, error)
	// Params are the parameters, flat in the layout's order
	// (enginekit.NewLayout); read them, never write them, and only until
	// the next call. SetParams replaces them (and what derives from them).
	Params() ([]float32, error)
	SetParams(params []float32) error
	// Moments are Adam's moments (flat, as Params, read-only until the next
	// call) and its step count; SetMoments replaces them.
	Moments() (m, v []float32, step int, err error)
	SetMoments(m, v []float32, step int) error
	// SetInterrupt makes Update, EvaluateAll and GreedyPrograms stop at
	// their next boundary (between steps on the CPU, kernel launches and
	// host-drawn parts on the GPU) once stop is closed, returning an error
	// for which errors.Is(err, ErrInterrupted); an interrupted call changes
	// nothing. nil: never. Call it between calls.
	SetInterrupt(stop <-chan struct{})
	Close()
}

// greedySolver is an Engine that can also say, of the given instances,
// which greedy play answers correctly (task.Outcome.Correct) without handing
// back the programs: solved[i] for ins[i], what task.Score says of
// GreedyPrograms's program for it, so it may stop each episode at its end
// and play in parallel. The exhaustive listing and the stop rule's subsets
// (solvedGreedily) use it where an engine has it (cpu.Engine), and
// GreedyPrograms otherwise, as database/sql uses a driver's optional
// interfaces; it stays unexported to keep the package's API small. An
// interrupt stops it as it stops GreedyPrograms.
type greedySolver interface {
	GreedySolved(ins []task.Instance, solved []bool) error
}

// Plan is what one training update plays: the curriculum's choice and the
// schedule's entropy coefficient, decided by the Trainer.
type Plan struct {
	Update int // 1-based: the round of the training stream
	// Level is the update's level, or −1: each episode draws its own from
	// Played by the cumulative weights CDF (enginekit.DrawLevel). Both are
	// the curriculum's, read-only and valid during the update.
	Level   int
	Played  []int
	CDF     []float64
	Entropy float64 // the entropy coefficient (Config.EntropyAt)
	// Items, for a task.Itemized task, are the cumulative weights over each
	// level's training items, Items[level] (Items(level, Training) long);
	// nil, or an empty entry: the task's own Draw. An episode of level l
	// plays item enginekit.DrawItem(Items[l], key, Update, episode) through
	// DrawItem.
	Items [][]float64
	// Replay are teacher-forced episodes the update also plays, after the
	// batch: each program (Steps long, padded after its answer with the
	// answer token) on its instance. Their loss is
	//
	//	replay = −(1/len(Replay)) Σ_r Σ_{t ≤ answer_r} logp_t(program_r[t])
	//
	// weighted by ReplayCoef (LossTerms.Replay); no value or entropy term,
	// and they count in no reward or solve rate.
	Replay     []task.Episode // their Instance and Program; Reward and Correct unused
	ReplayCoef float64
	// Record, when not nil (Batch long), receives every sampled episode of
	// the batch: its instance, its program (copied into the entry's
	// Program, Steps long, which the trainer allocates), its reward (its
	// return rounded to float32, as the loss reads it, on every engine) and
	// whether it was correct.
	Record []task.Episode
}

// UpdateStats describes one update.
type UpdateStats struct {
	Update     int
	Level      int // the update's level, or −1 when each episode drew its own
	MeanReward float64
	SolveRate  float64 // fraction of episodes answered correctly
	Loss       LossTerms
	GradNorm   float64 // before clipping (PPO: the mean over its optimiser steps)
	// Diagnostics, when the estimator computes them (diagnostics.go).
	Diagnostics *Diagnostics
}

// LossTerms are the loss terms over a batch (see internal/enginekit/baseline_loss.go for each
// baseline's definition).
type LossTerms struct {
	PG, Value, Entropy, Total float64
	Replay                    float64 // the replayed programs' negative log-likelihood (Plan.Replay), 0 without
}

package cpu

// The construction plan: every buffer a CPU engine of a configuration
// allocates, sized once from the configuration. NewWithTask builds the
// engine from it and Memory's estimate is the sum of its bytes, so the
// estimate is not a second computation of what construction allocates.

import (
	"unsafe"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// chunkSize is the episodes per chunk the CPU engine uses: the configured
// chunk, at most the batch (a larger chunk would only hold memory no pass uses in training).
func chunkSize(c trainer.Config) int { return max(1, min(c.Chunk, c.Batch)) }

// largestPass is the most episodes one pass (an update, an evaluation round)
// plays.
func largestPass(c trainer.Config) int { return max(c.Batch, c.EvalBatch, c.FinalEpisodes, 1) }

// workerCount is how many pool workers the CPU engine starts: the threads,
// at most the chunks of the largest pass (the others would never get one).
func workerCount(c trainer.Config) int {
	chunk := chunkSize(c)
	return max(1, min(c.Threads, (largestPass(c)+chunk-1)/chunk))
}

// plan is the sizes of a CPU engine of a configuration: NewWithTask takes
// every count from it.
type plan struct {
	layout  *gru.Layout // the task's model, reading its context when the configuration says so
	chunk   int         // episodes per chunk (chunkSize)
	steps   int         // steps of a rollout
	workers int         // pool workers (workerCount), each with resultsPerWorker results
	// slots is the pool's chunks parked for the ordered merge: those of the
	// largest pass or of the replayed episodes, whichever has more.
	slots int
	// ppoBatch is the episodes -estimator ppo stores (ppo.go), 0 without it.
	ppoBatch int
	// masked: the task has a legal-action mask, which each worker's
	// workspace holds (gru.Workspace.MaskActions: chunk×V flags).
	masked bool
	// gameBytes is what each of the task's games holds beyond its row's
	// instance (task.GameBytes: the countdown tasks' no-revisit sets).
	gameBytes float64
}

// newPlan is the plan of an engine of c, valid, for its task t.
func newPlan(c trainer.Config, t task.Task) (*plan, error) {
	l, err := enginekit.NewLayout(c.Hidden, t)
	if err != nil {
		return nil, err
	}
	l.Read = c.Context == trainer.ContextRead // the same tensors; only the rollout (and its workspace) differs
	chunk := chunkSize(c)
	return &plan{layout: l, chunk: chunk, steps: c.Steps, workers: workerCount(c),
		slots: (max(largestPass(c), c.Replay) + chunk - 1) / chunk, ppoBatch: ppoBatch(c), masked: task.Masks(t),
		gameBytes: task.GameBytes(t)}, nil
}

// plannedBuffer is one buffer of a plan: count elements of size bytes, in
// copies copies, its share of the memory given to the Config field (JSON
// name) that drives it. The numbers are float64, as a 32-bit int would
// overflow for the largest configurations.
type plannedBuffer struct {
	name          string
	count, size   float64
	copies        float64
	knob          string
	estimatedOnly bool // the task's memory, which the engine does not allocate itself
}

// buffers is every buffer of an engine of p. The model's derived tensors,
// its token-table gradients and the workspaces are gru's, counted by gru in
// bytes.
func (p *plan) buffers() []plannedBuffer {
	l, C, T := p.layout, float64(p.chunk), float64(p.steps)
	N, W, R := float64(p.layout.Size), float64(p.workers), float64(p.workers*resultsPerWorker)
	instance := float64(unsafe.Sizeof(task.Instance{}))
	masked := 0.0
	if p.masked {
		masked = 1
	}
	return append([]plannedBuffer{
		// the engine's: the model, its gradient and Adam's moments
		{"params", N, 4, 1, "hidden", false},
		{"derived tensors", gru.DerivedBytes(l), 1, 1, "hidden", false},
		{"gradient", N, 4, 1, "hidden", false},
		{"token-table gradient", gru.TableGradientBytes(l), 1, 1, "hidden", false},
		{"adam m and v", N, 4, 2, "hidden", false},
		// each worker's (newWorker): a chunk's workspace, instances, returns,
		// first observations, one program, and the step buffers
		{"workspace", gru.WorkspaceBytes(l, p.chunk, p.steps), 1, W, "chunk", false},
		{"instances", C, instance, W, "chunk", false},
		{"returns", C, 4, W, "chunk", false},
		{"first observations", C, 4, W, "chunk", false},
		{"program", T, 4, W, "chunk", false},
		{"legal-action mask", C * float64(l.Vocab) * masked, 1, W, "chunk", false},
		{"step observations", C * T, 4, W, "chunk", false},
		{"step rewards", C * T, 8, W, "chunk", false},
		{"step done flags", C * T, 1, W, "chunk", false},
		{"step truncated flags", C * T, 1, W, "chunk", false},
		{"returns to go", C * T, 4, W, "chunk", false},
		{"episode ends", C, 4, W, "chunk", false},
		// the task's Env of a chunk: its rows' state, about an instance each
		// and what a game declares it holds (task.GameSized)
		{"task Env (estimated)", C, instance + p.gameBytes, W, "chunk", true},
		// each worker's results (newWorker)
		{"result gradient", N, 4, R, "threads", false},
		{"result token-table gradient", gru.TableGradientBytes(l), 1, R, "threads", false},
		{"result solved flags", C, 1, R, "threads", false},
		// the pool's (newPool): its workers and its slots
		{"pool workers", W, float64(unsafe.Sizeof((*worker)(nil))), 1, "chunk", false},
		{"pool slots", float64(p.slots), float64(unsafe.Sizeof((*result)(nil))), 1, "chunk", false},
	}, ppoBuffers(p.ppoBatch, p.steps, p.layout.Size)...)
}

// bytes is the memory of p's buffers in shares by knob; allocated leaves
// out the task's, which the engine does not allocate itself.
func (p *plan) bytes(allocated bool) enginekit.Memory {
	m := enginekit.Memory{}
	for _, b := range p.buffers() {
		if !allocated || !b.estimatedOnly {
			m[b.knob] += b.count * b.size * b.copies
		}
	}
	return m
}

package cpu

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

// Memory estimates the bytes a run of c on the CPU engine allocates: the
// model and its derived tables, the gradient, Adam's moments, per worker a
// chunk workspace and two chunk results, and the trainer's own buffers
// (enginekit.TrainerMemory: its records of the batch, the replay buffer, the
// explanations, the exhaustive evaluation's lists, a checkpoint). It reports
// the Config field (by its JSON name) whose share is the largest. A
// configuration that is not valid gets 0: New refuses it before.
func Memory(c trainer.Config) (bytes float64, knob string) {
	t, err := c.OpenTask()
	if err != nil || c.ValidateOpened(t) != nil {
		return 0, ""
	}
	m := memoryFor(c, t)
	return m.Total(), m.Knob()
}

// memoryFor is Memory of c, valid, for its task t, in shares.
func memoryFor(c trainer.Config, t task.Task) enginekit.Memory {
	l, err := enginekit.NewLayout(c.Hidden, t)
	if err != nil {
		return nil
	}
	l.Read = c.Context == trainer.ContextRead // a reading workspace holds the reading steps too
	V, d, rows := float64(l.Vocab), float64(l.Hidden), float64(l.InputRows())
	size, table := float64(l.Size), rows*3*d
	derived := table + (V+1)*d + V + 1
	if l.Observations > 0 {
		derived += rows * d // the summed embeddings (gru.Derived)
	}
	tableGrad := gru.TableGradientBytes(l)
	model := 4*(4*size+derived) + tableGrad // params, grad, m, v, derived; the table gradient
	chunk, workers := chunkSize(c), float64(workerCount(c))
	ws := gru.WorkspaceBytes(l, chunk, c.Steps)
	results := 2 * (4*size + tableGrad + float64(chunk))
	// the worker's own: a chunk of instances, rewards and first observations, one program
	ws += float64(chunk)*(float64(unsafe.Sizeof(task.Instance{}))+8) + 4*float64(max(1, c.Steps))
	// the chunk's Env (its rows' state, about an instance each) and the step buffers
	ws += float64(chunk)*float64(unsafe.Sizeof(task.Instance{})) + stepBufferBytes(chunk, c.Steps)
	// the pool's slot per chunk, for the largest pass and the replayed episodes' (it grows once)
	pool := 8 * float64((max(largestPass(c), c.Replay)+chunk-1)/chunk)
	m := enginekit.TrainerMemory(enginekit.RunSizes{Hidden: c.Hidden, Batch: c.Batch, Steps: c.Steps, Replay: c.Replay,
		Explain: c.Explain, FinalEpisodes: c.FinalEpisodes, Updates: c.Updates, EvalEvery: c.EvalEvery,
		ItemFocus: c.ItemFocus, StopAt: c.StopAt}, t)
	m["hidden"] += model
	m["chunk"] += workers*ws + pool
	m["threads"] += workers * results
	total := m.Total()
	m[m.Knob()] += 0.03*total + 256<<10 // the allocator rounds large buffers up to whole pages
	return m
}

// checkMemory refuses c, valid for its task t, when its Memory exceeds the
// memory available.
func checkMemory(c trainer.Config, t task.Task) error {
	m := memoryFor(c, t)
	if have := enginekit.AvailableMemory(); have > 0 && m.Total() > have {
		return &trainer.ResourceError{Need: m.Total(), Have: have, Knob: m.Knob()}
	}
	return nil
}

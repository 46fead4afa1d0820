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

// Memory estimates the bytes the CPU engine allocates for c: the model
// and its derived tables, the gradient, Adam's moments, and per worker a
// chunk workspace and two chunk results. It reports which knob dominates.
// A configuration that is not valid gets 0: New refuses it before.
func Memory(c trainer.Config) (bytes float64, knob string) {
	t, err := c.OpenTask()
	if err != nil || c.ValidateFor(t) != nil {
		return 0, ""
	}
	return memoryFor(c, t)
}

// memoryFor is Memory of c, valid, for its task t.
func memoryFor(c trainer.Config, t task.Task) (bytes float64, knob string) {
	l, err := enginekit.NewLayout(c.Hidden, t)
	if err != nil {
		return 0, ""
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
	pool := 8 * float64((largestPass(c)+chunk-1)/chunk)
	bytes = model + workers*(ws+results) + pool
	bytes += 0.03*bytes + 256<<10 // the allocator rounds large buffers up to whole pages
	switch {
	case workers*ws >= model && workers*ws >= workers*results:
		knob = "chunk"
	case workers*results >= model:
		knob = "threads"
	default:
		knob = "hidden"
	}
	return bytes, knob
}

// checkMemory refuses c, valid for its task t, when its Memory exceeds the
// memory available.
func checkMemory(c trainer.Config, t task.Task) error {
	need, knob := memoryFor(c, t)
	if have := enginekit.AvailableMemory(); have > 0 && need > have {
		return &trainer.ResourceError{Need: need, Have: have, Knob: knob}
	}
	return nil
}

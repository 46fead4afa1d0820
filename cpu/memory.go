package cpu

import (
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Memory estimates the bytes a run of c on the CPU engine allocates: the
// buffers of the engine's plan (plan.buffers: the model and its derived
// tables, the gradient, Adam's moments, per worker a chunk workspace and two
// chunk results, the task's Env), and the trainer's own buffers
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

// memoryFor is Memory of c, valid, for its task t, in shares: its plan's
// buffers (plan.bytes) and the trainer's.
func memoryFor(c trainer.Config, t task.Task) enginekit.Memory {
	p, err := newPlan(c, t)
	if err != nil {
		return nil
	}
	return p.memory(c, t)
}

// memory is the memory of a run of c on an engine of plan p, in shares: its
// buffers, the trainer's (enginekit.TrainerMemory), and the allocator's
// rounding.
func (p *plan) memory(c trainer.Config, t task.Task) enginekit.Memory {
	m := enginekit.TrainerMemory(enginekit.RunSizes{Hidden: c.Hidden, Batch: c.Batch, Steps: c.Steps, Replay: c.Replay,
		Explain: c.Explain, FinalEpisodes: c.FinalEpisodes, Updates: c.Updates, EvalEvery: c.EvalEvery,
		ItemFocus: c.ItemFocus, StopAt: c.StopAt}, t)
	for knob, b := range p.bytes(false) {
		m[knob] += b
	}
	total := m.Total()
	m[m.Knob()] += 0.03*total + 256<<10 // the allocator rounds large buffers up to whole pages
	return m
}

// checkMemory refuses c, valid for its task t, when the memory of a run on
// an engine of plan p exceeds the memory available.
func checkMemory(c trainer.Config, t task.Task, p *plan) error {
	m := p.memory(c, t)
	if have := enginekit.AvailableMemory(); have > 0 && m.Total() > have {
		return &trainer.ResourceError{Need: m.Total(), Have: have, Knob: m.Knob()}
	}
	return nil
}

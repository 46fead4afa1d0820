//go:build cgo

package gpu

// Drawing instances on the host (every task but the seed) and uploading
// them.

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// trainingDraw is how the host draws the batch's instances of plan p, or
// nil when the kernel draws them (the seed task): each episode's level (p's,
// or drawn by the curriculum's weights) and, when p weights a level's items
// (p.Items, a task.Itemized task), its item by enginekit.DrawItem and its
// instance by the task's DrawItem, else its task's Draw; the same
// instances as the CPU engine's, counter for counter. A group of
// cfg.Group consecutive episodes plays one instance, drawn by the group's
// index (the CPU's trainJob.work; the kernel's draw in rollout.cu).
func (e *engine) trainingDraw(p trainer.Plan) (func(b int) task.Instance, error) {
	u := uint32(p.Update)
	items := false
	for _, w := range p.Items {
		items = items || len(w) > 0
	}
	it, itemized := e.task.(task.Itemized)
	if items && (!itemized || !e.hostDraw) {
		return nil, fmt.Errorf("gpu: the plan weights the items of task %s, whose levels are not sets of items (task.Itemized)", e.task.Name())
	}
	if !e.hostDraw {
		return nil, nil
	}
	// the plan's fields, copied into the drawer (hostdraw.go): a closure
	// would be allocated on every update
	d := e.drawer()
	d.training = trainingDraws{e: e, u: u, level: p.Level, played: p.Played, cdf: p.CDF, weights: p.Items, K: e.cfg.GroupSize(), items: items, it: it}
	return d.trainingDraw, nil
}

// drawOnHost draws the instances of n episodes with the task's Draw, episode
// b of level level(b) from purpose on round, and uploads them (drawWith).
func (e *engine) drawOnHost(n int, round uint32, purpose rng.Purpose, level func(b int) int, split task.Split) error {
	return e.drawWith(n, func(b int) task.Instance { return e.task.Draw(e.key, round, uint32(b), purpose, level(b), split) })
}

// drawWith draws the instances of n episodes, episode b's draw(b), and
// uploads them as records (rolloutSpec.givenTasks). Each instance, and each
// episode's level and item, is a pure function of its counters, so the
// parts drawn in parallel (hostDrawer) give the CPU's instances. Each part checks the
// interrupt every perPart episodes; an interrupted draw uploads nothing.
// An instance the task's Checker refuses is the error (the first episode's
// of those refused), and nothing is uploaded.
func (e *engine) drawWith(n int, draw func(b int) task.Instance) error {
	if n > e.maxN {
		return fmt.Errorf("gpu: %d episodes in an engine sized for %d", n, e.maxN)
	}
	recs := e.hostRecords(n)
	if err := e.drawer().run(n, draw, recs); err != nil {
		return err
	}
	return e.uploadTasks(recs)
}

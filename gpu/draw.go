//go:build cgo

package gpu

// Drawing instances on the host (every task but the seed) and uploading
// them.

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/simdrl/simdrl/gpu/internal/record"
	"github.com/simdrl/simdrl/internal/enginekit"
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
	// the closure's copies of p's fields: p itself, captured, would be
	// moved to the heap on every update, the kernel's draws too
	level, played, cdf, weights, K := p.Level, p.Played, p.CDF, p.Items, e.cfg.GroupSize()
	return func(b int) task.Instance {
		instance := uint32(b / K)
		lv := level
		if lv < 0 {
			lv = enginekit.DrawLevel(played, cdf, e.key, u, instance)
		}
		if items && lv < len(weights) && len(weights[lv]) > 0 {
			item := enginekit.DrawItem(weights[lv], e.key, u, instance)
			return it.DrawItem(e.key, u, instance, rng.PurposeTask, lv, task.Training, item)
		}
		return e.task.Draw(e.key, u, instance, rng.PurposeTask, lv, task.Training)
	}, nil
}

// drawOnHost draws the instances of n episodes with the task's Draw, episode
// b of level level(b) from purpose on round, and uploads them (drawWith).
func (e *engine) drawOnHost(n int, round uint32, purpose rng.Purpose, level func(b int) int, split task.Split) error {
	return e.drawWith(n, func(b int) task.Instance { return e.task.Draw(e.key, round, uint32(b), purpose, level(b), split) })
}

// drawWith draws the instances of n episodes, episode b's draw(b), and
// uploads them as records (rolloutSpec.givenTasks). Each instance, and each
// episode's level and item, is a pure function of its counters, so the
// parts drawn in parallel give the CPU's instances. Each part checks the
// interrupt every perPart episodes; an interrupted draw uploads nothing.
// An instance the task's Checker refuses is the error (the first episode's
// of those refused), and nothing is uploaded.
func (e *engine) drawWith(n int, draw func(b int) task.Instance) error {
	if n > e.maxN {
		return fmt.Errorf("gpu: %d episodes in an engine sized for %d", n, e.maxN)
	}
	recs := e.hostRecords(n)
	const perPart = 2048
	parts := min(runtime.GOMAXPROCS(0), ceilDiv(n, perPart))
	var wg sync.WaitGroup
	var stopped atomic.Bool
	var bad struct { // the first episode refused, and why
		sync.Mutex
		b   int
		err error
	}
	bad.b = n
	for p := 0; p < parts; p++ {
		lo, hi := p*n/parts, (p+1)*n/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			refuse := func(b int, err error) {
				bad.Lock()
				if b < bad.b {
					bad.b, bad.err = b, err
				}
				bad.Unlock()
			}
			b := lo
			// A panic in the task's Draw is its error, like a refused
			// instance: on this goroutine it would end the program.
			defer func() {
				if v := recover(); v != nil {
					refuse(b, e.check.Panic(v))
				}
			}()
			for ; b < hi; b++ {
				if (b-lo)%perPart == 0 && (stopped.Load() || e.interrupted("draw")) {
					stopped.Store(true)
					return
				}
				in := draw(b)
				e.keepInstance(b, &in)
				err := e.check.Drawn(&in, int(in.Level))
				if err == nil {
					if err = e.pack(recs[record.Words*b:], &in); err != nil {
						err = fmt.Errorf("the %s task drew a bad instance of level %d: %w", task.NameOf(e.task), in.Level, err)
					}
				}
				if err != nil {
					refuse(b, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if stopped.Load() {
		return trainer.ErrInterrupted
	}
	if bad.err != nil {
		return bad.err
	}
	return e.uploadTasks(recs)
}

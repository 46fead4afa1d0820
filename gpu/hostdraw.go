//go:build cgo

package gpu

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

// hostDrawer draws a rollout's instances on the host (drawWith) in parts,
// the first on the caller and the others on persistent workers, and holds
// the update's draw (trainingDraw): a goroutine started per draw, the
// closures it captures, and a closure per update would each allocate on
// every update, and the hot loop allocates nothing.
type hostDrawer struct {
	e    *engine
	jobs []chan drawPart // one worker a part after the first

	// the draw under way (drawWith)
	draw    func(b int) task.Instance
	recs    []int32
	wg      sync.WaitGroup
	stopped atomic.Bool
	mu      sync.Mutex
	bad     int   // the first episode refused
	err     error // and why

	// the update's draw (trainingDraw) and the evaluation's
	// (drawEvaluation), and their methods bound once
	training                     trainingDraws
	evaluation                   evaluationDraws
	trainingDraw, evaluationDraw func(b int) task.Instance
}

// drawPart is a worker's order: draw episodes lo … hi−1.
type drawPart struct{ lo, hi int }

// drawer is e's hostDrawer, started by its first draw on the host (the
// seed task's engine draws only an evaluation's later parts there) and
// ended by free.
func (e *engine) drawer() *hostDrawer {
	if e.draws == nil {
		e.draws = newHostDrawer(e)
	}
	return e.draws
}

// newHostDrawer starts the workers of e's host draws: one a processor
// beyond the caller's.
func newHostDrawer(e *engine) *hostDrawer {
	d := &hostDrawer{e: e, jobs: make([]chan drawPart, runtime.GOMAXPROCS(0)-1)}
	d.training.e = e
	d.evaluation.e = e
	d.trainingDraw, d.evaluationDraw = d.training.draw, d.evaluation.draw
	for p := range d.jobs {
		d.jobs[p] = make(chan drawPart)
		go d.worker(d.jobs[p])
	}
	return d
}

// close ends the workers.
func (d *hostDrawer) close() {
	for _, c := range d.jobs {
		close(c)
	}
}

func (d *hostDrawer) worker(jobs chan drawPart) {
	for j := range jobs {
		d.part(j.lo, j.hi)
		d.wg.Done()
	}
}

// perPart is the episodes a part draws between two looks at the interrupt,
// and the fewest a part is given.
const perPart = 2048

// run draws the instances of n episodes, episode b's draw(b), into recs
// (drawWith).
func (d *hostDrawer) run(n int, draw func(b int) task.Instance, recs []int32) error {
	if n == 0 {
		return nil
	}
	d.draw, d.recs, d.bad, d.err = draw, recs, n, nil
	d.stopped.Store(false)
	parts := min(1+len(d.jobs), ceilDiv(n, perPart))
	d.wg.Add(parts - 1)
	for p := 1; p < parts; p++ {
		d.jobs[p-1] <- drawPart{p * n / parts, (p + 1) * n / parts}
	}
	d.part(0, n/parts)
	d.wg.Wait()
	if d.stopped.Load() {
		return trainer.ErrInterrupted
	}
	return d.err
}

// refuse records episode b's refusal when it is the first so far.
func (d *hostDrawer) refuse(b int, err error) {
	d.mu.Lock()
	if b < d.bad {
		d.bad, d.err = b, err
	}
	d.mu.Unlock()
}

// part draws, checks and packs episodes lo … hi−1, looking at the
// interrupt every perPart episodes; it stops at its first refusal.
func (d *hostDrawer) part(lo, hi int) {
	e := d.e
	b := lo
	// A panic in the task's Draw is its error, like a refused instance: on
	// a worker it would end the program.
	defer func() {
		if v := recover(); v != nil {
			d.refuse(b, e.check.Panic(v))
		}
	}()
	for ; b < hi; b++ {
		if (b-lo)%perPart == 0 && (d.stopped.Load() || e.interrupted("draw")) {
			d.stopped.Store(true)
			return
		}
		in := d.draw(b)
		e.keepInstance(b, &in)
		err := e.check.Drawn(&in, int(in.Level))
		if err == nil {
			if err = e.pack(d.recs[record.Words*b:], &in); err != nil {
				err = fmt.Errorf("the %s task drew a bad instance of level %d: %w", task.NameOf(e.task), in.Level, err)
			}
		}
		if err != nil {
			d.refuse(b, err)
			return
		}
	}
}

// trainingDraws is an update's draw (trainingDraw): the plan's fields it
// reads, copied, and the task's.
type trainingDraws struct {
	e       *engine
	u       uint32
	level   int
	played  []int
	cdf     []float64
	weights [][]float64
	K       int
	items   bool
	it      task.Itemized
}

// draw is episode b's instance: its group's, of the plan's level or one
// drawn by the curriculum's weights, and of an item drawn by the level's
// item weights when the plan has them.
func (s *trainingDraws) draw(b int) task.Instance {
	e, u := s.e, s.u
	instance := uint32(b / s.K)
	lv := s.level
	if lv < 0 {
		lv = enginekit.DrawLevel(s.played, s.cdf, e.key, u, instance)
	}
	if s.items && lv < len(s.weights) && len(s.weights[lv]) > 0 {
		item := enginekit.DrawItem(s.weights[lv], e.key, u, instance)
		return s.it.DrawItem(e.key, u, instance, rng.PurposeTask, lv, task.Training, item)
	}
	return e.task.Draw(e.key, u, instance, rng.PurposeTask, lv, task.Training)
}

// evaluationDraws is an evaluation's draw of its episodes first … (drawEvaluation).
type evaluationDraws struct {
	e            *engine
	round        uint32
	first, level int
	purpose      rng.Purpose
	split        task.Split
}

// draw is episode b's instance: episode first+b of the evaluation's.
func (s *evaluationDraws) draw(b int) task.Instance {
	return s.e.task.Draw(s.e.key, s.round, uint32(s.first+b), s.purpose, s.level, s.split)
}

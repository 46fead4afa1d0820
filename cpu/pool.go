package cpu

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// worker owns one chunk's worth of working memory (a workspace, the chunk's
// tasks, their Env and its per-step results, the returns) and a few result
// buffers. A worker processes whole chunks.
type worker struct {
	l       *gru.Layout
	ws      *gru.Workspace
	tasks   []task.Instance
	env     task.Env
	steps   stepBuffers
	rewards []float32 // per episode: its return
	program []int32
	ctx     [gru.MaxContext]int32
	end     int32   // the task's context end (task.ContextEnd)
	first   []int32 // per episode: the observation Env.Reset returned (with observations)
	task    task.Task
	check   task.Checker           // what the task hands the worker: instances, observations, rewards
	fields  *enginekit.FieldInputs // a Fielded task's fields (nil: none)
	masker  task.Masker            // the Env's legal-action mask (mask.go); nil: none
	results [resultsPerWorker]*result

	// interrupt, once closed, cuts the chunk at its next step (SetInterrupt).
	// afterStep, when set (tests), is called after each rollout step.
	interrupt <-chan struct{}
	afterStep func(t int)
}

// A workspace takes task.MaxContext shown tokens and the end: gru cannot
// import task, so its bound is checked here, where both are seen.
var (
	_ [gru.MaxContext - task.MaxContext - 1]struct{}
	_ [task.MaxContext + 1 - gru.MaxContext]struct{}
)

// resultsPerWorker lets a worker start its next chunk while an earlier one
// still waits for its turn to be merged.
const resultsPerWorker = 2

// result is what one chunk hands to the ordered merge.
type result struct {
	busy   bool  // owned by a chunk not merged yet (guarded by pool.mu)
	cut    bool  // the interrupt stopped the chunk midway: nothing to merge
	err    error // the task broke its contract or panicked: nothing to merge
	first  int   // the chunk's first episode and its size
	n      int
	grad   []float32          // training: the chunk's gradient, but for the token table's
	table  *gru.TableGradient // training: the chunk's token-table gradient
	solved []bool             // per episode: answered correctly
	rsum   float64            // sum of rewards
	live   int                // training: the steps its rollout computed (gru.Workspace.LiveSteps)
	loss   trainer.LossTerms  // training: the chunk's share of the loss terms
	flat   int                // training with a group estimator: the chunk's groups whose returns are all equal
	// PPO (ppoJob): the chunk's sums of the approximate KL and of the clipped steps
	ppoKL, ppoClipped float64
}

// newWorker is a worker of plan p for task t.
func newWorker(p *plan, t task.Task) (*worker, error) {
	l, chunk, steps := p.layout, p.chunk, p.steps
	ws, err := gru.NewWorkspace(l, chunk, steps)
	if err != nil {
		return nil, err
	}
	env := task.NewEnv(t, chunk)
	fields, err := enginekit.NewFieldInputs(t, l, env)
	if err != nil {
		return nil, err
	}
	if got := env.Observations(); got != l.Observations && fields == nil {
		return nil, fmt.Errorf("task %s: its Env observes %d tokens, the task declares %d (task.Observer)", t.Name(), got, l.Observations)
	}
	w := &worker{l: l, ws: ws, tasks: make([]task.Instance, chunk), env: env, steps: newStepBuffers(chunk, steps),
		rewards: make([]float32, chunk), program: make([]int32, steps), end: task.ContextEnd(t), first: make([]int32, chunk), task: t,
		check: task.NewChecker(t), fields: fields}
	w.useMask(env)
	for i := range w.results {
		w.results[i] = &result{grad: make([]float32, l.Size), table: gru.NewTableGradient(l), solved: make([]bool, chunk)}
	}
	return w, nil
}

// setContext starts episode b on in: the policy's context and the task's
// row, whose first observation the rollout's first input carries.
func (w *worker) setContext(b int, in *task.Instance) {
	k := in.WriteContext(w.ctx[:], w.end)
	w.ws.SetContext(b, w.stage(int(in.Level)), w.ctx[:k])
	w.first[b] = w.env.Reset(b, in)
}

// stage is the level embedding of an episode of level (task.Stage).
func (w *worker) stage(level int) int { return task.Stage(w.task, level) }

// episodeProgram gathers episode b's actions (stored step-major) in order.
func (w *worker) episodeProgram(b int) []int32 {
	for s := range w.program {
		w.program[s] = w.ws.Action(b, s)
	}
	return w.program
}

// job is one parallel pass over the chunks of a batch: work computes a chunk
// (episodes r.first..r.first+r.n) on worker w into r; merge folds r into the
// totals. merge is called in chunk order, one chunk at a time, whatever the
// number of threads: that order is what makes results bit-identical for any
// -threads.
type job interface {
	work(w *worker, r *result)
	merge(r *result)
}

// pool runs jobs on a fixed set of goroutines, one per worker. A finished
// chunk is parked in ready[c]; whoever completes the lowest unmerged chunk
// merges every consecutive ready one, so no worker idles waiting for its turn
// while it has a free result buffer.
type pool struct {
	workers []*worker
	chunk   int

	start  chan struct{} // one token per worker per pass
	done   sync.WaitGroup
	exited sync.WaitGroup // the goroutines, until close

	// the current pass
	j      job
	total  int          // episodes
	chunks int          // number of chunks
	next   atomic.Int64 // next chunk to take
	mu     sync.Mutex
	freed  sync.Cond // signalled when results are merged and freed
	ready  []*result // by chunk, until merged
	merged int       // chunks merged so far
	cut    bool      // some chunk was cut midway (result.cut)
	err    error     // the first chunk's error, in chunk order (result.err)

	// stop, once closed, ends a pass before its next chunk (Engine.SetInterrupt);
	// nil: never. afterWork, when set (tests), is called after chunk c is worked.
	stop      <-chan struct{}
	afterWork func(c int)

	stopped bool
}

// newPool starts a goroutine for each of workers, which take chunks of chunk
// episodes, with slots chunks parked at most (plan.slots).
func newPool(workers []*worker, chunk, slots int) *pool {
	p := &pool{workers: workers, chunk: chunk, start: make(chan struct{})}
	p.ready = make([]*result, slots)
	p.freed.L = &p.mu
	p.exited.Add(len(workers))
	for _, w := range workers {
		go p.loop(w)
	}
	return p
}

func (p *pool) loop(w *worker) {
	defer p.exited.Done()
	for range p.start {
		for {
			r := p.acquire(w)
			// Checked before the chunk is taken: the chunks taken are always
			// 0..k-1, so every one of them is merged and the pool stays clean.
			c := p.chunks
			if !closed(p.stop) {
				c = int(p.next.Add(1) - 1)
			}
			if c >= p.chunks {
				p.mu.Lock()
				r.busy = false
				p.mu.Unlock()
				break
			}
			r.first = c * p.chunk
			r.n = min(p.chunk, p.total-r.first)
			r.cut = false
			p.work(w, r)
			if p.afterWork != nil {
				p.afterWork(c)
			}
			p.deposit(c, r)
		}
		p.done.Done()
	}
}

// work computes chunk r on w, recovering a panic in the task's code (or a
// contract violation found in a rollout step) as the chunk's error: a
// deferred recover per chunk, so that a task's bug is an error of the
// engine's caller, not a crash of the program from this goroutine.
func (p *pool) work(w *worker, r *result) {
	r.err = nil
	defer func() {
		if v := recover(); v != nil {
			r.err = w.check.Panic(v)
		}
	}()
	p.j.work(w, r)
}

// acquire waits for one of w's result buffers to be free and takes it.
func (p *pool) acquire(w *worker) *result {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		for _, r := range w.results {
			if !r.busy {
				r.busy = true
				return r
			}
		}
		p.freed.Wait()
	}
}

// deposit parks chunk c's result and merges every chunk whose turn has come.
func (p *pool) deposit(c int, r *result) {
	p.mu.Lock()
	p.ready[c] = r
	freed := false
	for p.merged < p.chunks && p.ready[p.merged] != nil {
		m := p.ready[p.merged]
		p.ready[p.merged] = nil
		switch {
		case m.err != nil:
			if p.err == nil {
				p.err = m.err
			}
		case m.cut:
			p.cut = true
		default:
			p.j.merge(m)
		}
		m.busy = false
		p.merged++
		freed = true
	}
	if freed {
		p.freed.Broadcast()
	}
	p.mu.Unlock()
}

// run executes j over episodes episodes and returns when every chunk is
// merged, nil, or when p.stop ended the pass early, trainer.ErrInterrupted:
// then the chunks taken before it are merged (but those it cut midway) and
// the others never started. A chunk's error (result.err) is returned
// instead, the first in chunk order; the pass's totals are then partial.
func (p *pool) run(j job, episodes int) error {
	p.j, p.total = j, episodes
	p.chunks = (episodes + p.chunk - 1) / p.chunk
	if p.chunks > len(p.ready) {
		p.ready = make([]*result, p.chunks) // a larger pass than planned: grow once
	}
	p.next.Store(0)
	p.merged, p.cut, p.err = 0, false, nil
	p.done.Add(len(p.workers))
	for range p.workers {
		p.start <- struct{}{}
	}
	p.done.Wait()
	p.j = nil
	switch {
	case p.err != nil:
		return p.err
	case p.merged != p.chunks || p.cut:
		return trainer.ErrInterrupted
	}
	return nil
}

// close stops the goroutines and waits for them to end, so that nothing of
// the pool is alive afterwards; the pool cannot be used again.
func (p *pool) close() {
	if !p.stopped {
		p.stopped = true
		close(p.start)
		p.exited.Wait()
	}
}

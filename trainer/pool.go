package trainer

import (
	"sync"
	"sync/atomic"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
)

// worker owns one chunk's worth of memory: a workspace, the chunk's tasks,
// rewards and gradient. A worker processes whole chunks.
type worker struct {
	ws      *gru.Workspace
	tasks   []env.Task
	rewards []float32
	program []int32
	ctx     [gru.MaxContext]int32
	grad    []float32
	solved  []bool    // per episode of the chunk
	loss    LossTerms // the chunk's share of the loss
	rsum    float64   // evaluation: the chunk's reward sum
}

func newWorker(l *gru.Layout, chunk, steps int) (*worker, error) {
	ws, err := gru.NewWorkspace(l, chunk, steps)
	if err != nil {
		return nil, err
	}
	return &worker{
		ws: ws, tasks: make([]env.Task, chunk), rewards: make([]float32, chunk),
		program: make([]int32, steps), grad: make([]float32, l.Size), solved: make([]bool, chunk),
	}, nil
}

func (w *worker) setContext(b int, task env.Task) {
	k := task.Context(w.ctx[:])
	w.ws.SetContext(b, task.Stage, w.ctx[:k])
}

// episodeProgram gathers episode b's actions (stored step-major) in order.
func (w *worker) episodeProgram(b int) []int32 {
	for s := range w.program {
		w.program[s] = w.ws.Action(b, s)
	}
	return w.program
}

// job is one parallel pass over the chunks of a batch: work computes chunk c
// (episodes first..first+n) on worker w; merge folds chunk c's results into
// the totals and is called in chunk order, one chunk at a time, whatever the
// number of threads: that order is what makes results bit-identical for any
// -threads.
type job interface {
	work(w *worker, c, first, n int)
	merge(w *worker, c, first, n int)
}

// pool runs jobs on a fixed set of goroutines, one per worker.
type pool struct {
	workers []*worker
	chunk   int

	start chan struct{} // one token per worker per pass
	done  sync.WaitGroup

	// the current pass
	j       job
	total   int          // episodes
	chunks  int          // number of chunks
	next    atomic.Int64 // next chunk to take
	mu      sync.Mutex
	turn    sync.Cond // signalled when merged advances
	merged  int       // chunks merged so far
	stopped bool
}

func newPool(workers []*worker, chunk int) *pool {
	p := &pool{workers: workers, chunk: chunk, start: make(chan struct{})}
	p.turn.L = &p.mu
	for _, w := range workers {
		go p.loop(w)
	}
	return p
}

func (p *pool) loop(w *worker) {
	for range p.start {
		for {
			c := int(p.next.Add(1) - 1)
			if c >= p.chunks {
				break
			}
			first := c * p.chunk
			n := min(p.chunk, p.total-first)
			p.j.work(w, c, first, n)
			p.mu.Lock()
			for p.merged != c {
				p.turn.Wait()
			}
			p.j.merge(w, c, first, n)
			p.merged++
			p.turn.Broadcast()
			p.mu.Unlock()
		}
		p.done.Done()
	}
}

// run executes j over episodes episodes and returns when every chunk is merged.
func (p *pool) run(j job, episodes int) {
	p.j, p.total = j, episodes
	p.chunks = (episodes + p.chunk - 1) / p.chunk
	p.next.Store(0)
	p.merged = 0
	p.done.Add(len(p.workers))
	for range p.workers {
		p.start <- struct{}{}
	}
	p.done.Wait()
	p.j = nil
}

// close stops the goroutines; the pool cannot be used afterwards.
func (p *pool) close() {
	if !p.stopped {
		p.stopped = true
		close(p.start)
	}
}

//go:build cgo

package gpu

import (
	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Engine is the GPU as a trainer.Engine: the device, its engine and the
// host-side curriculum. Every call runs on the device's own goroutine.
type Engine struct {
	cfg     trainer.Config
	task    task.Task
	d       *Device
	e       *engine
	cur     *trainer.Curriculum
	updates int
	params  []float32 // host copy for hashing
}

// New opens the GPU and builds a model with cfg's initial parameters, as a
// trainer.Engine (cmd opens engines by name through it).
func New(cfg trainer.Config) (trainer.Engine, error) {
	g, err := NewEngine(cfg)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// NewWithTask is New for the opened task t (cpu.NewWithTask's twin): the
// kernels score the seed task and tasks on the calculator's op table
// (task.Interpreted), and refuse any other with one line.
func NewWithTask(cfg trainer.Config, t task.Task) (trainer.Engine, error) {
	g, err := newEngineWithTask(cfg, t)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// NewEngine opens the GPU and builds a model with cfg's initial parameters
// (the CPU's, bit for bit), for cfg's task opened through the registry.
func NewEngine(cfg trainer.Config) (*Engine, error) {
	t, err := cfg.OpenTask()
	if err != nil {
		if verr := cfg.Validate(); verr != nil {
			return nil, verr // the first invalid setting, as Validate orders them
		}
		return nil, err
	}
	return newEngineWithTask(cfg, t)
}

func newEngineWithTask(cfg trainer.Config, t task.Task) (*Engine, error) {
	if err := cfg.ValidateFor(t); err != nil {
		return nil, err
	}
	if _, err := scorerOf(t); err != nil {
		return nil, err
	}
	l, err := enginekit.NewLayout(cfg.Hidden, t)
	if err != nil {
		return nil, err
	}
	d, err := Open()
	if err != nil {
		return nil, err
	}
	g := &Engine{cfg: cfg, task: t, d: d, cur: trainer.NewCurriculum(cfg, len(t.Levels())), params: make([]float32, l.Size)}
	l.Init(g.params, cfg.Seed) // the CPU's initial parameters, bit for bit
	if err := d.do(func() error {
		var err error
		if g.e, err = newEngine(d, cfg, t, l); err != nil {
			return err
		}
		return g.e.setParams(g.params)
	}); err != nil {
		d.Close()
		return nil, err
	}
	return g, nil
}

func (g *Engine) Config() trainer.Config          { return g.cfg }
func (g *Engine) Backend() string                 { return "cuda" }
func (g *Engine) Task() task.Task                 { return g.task }
func (g *Engine) Describe() string                { return g.d.Describe() }
func (g *Engine) Curriculum() *trainer.Curriculum { return g.cur }
func (g *Engine) Updates() int                    { return g.updates }

// SetInterrupt makes Update, EvaluateAll and GreedyPrograms stop at their
// next check once stop is closed, with trainer.ErrInterrupted and nothing
// changed (where each checks: engine.update, engine.evaluate,
// engine.greedyPrograms, engine.drawOnHost); nil: never. It is called
// between calls, so the next Device.do orders it before the device thread
// reads it.
func (g *Engine) SetInterrupt(stop <-chan struct{}) { g.e.stop = stop }

func (g *Engine) Update() (st trainer.UpdateStats, err error) {
	err = g.d.do(func() error {
		var err error
		st, err = g.e.update(g.updates+1, g.cur)
		return err
	})
	if err == nil {
		g.updates++
	}
	return st, err
}

// EvaluateAll evaluates every level on split (the seed task holds nothing
// out: both splits are the same draws). An interrupt stops it between levels
// and within one (engine.evaluate).
func (g *Engine) EvaluateAll(n int, round uint32, split task.Split) (ev []trainer.EvalResult, err error) {
	ev = make([]trainer.EvalResult, len(g.task.Levels()))
	err = g.d.do(func() error {
		for s := range ev {
			var err error
			if ev[s], err = g.e.evaluate(s, n, round, split); err != nil {
				return err
			}
		}
		return nil
	})
	return ev, err
}

func (g *Engine) GreedyPrograms(tasks []task.Instance) (progs []int32, err error) {
	err = g.d.do(func() error {
		var err error
		progs, err = g.e.greedyPrograms(tasks)
		return err
	})
	return progs, err
}

func (g *Engine) ParamSHA256() (string, error) {
	if err := g.d.do(func() error { return g.e.getParams(g.params) }); err != nil {
		return "", err
	}
	return enginekit.HashParams(g.params), nil
}

func (g *Engine) Close() {
	g.d.do(func() error { g.e.free(); return nil })
	g.d.Close()
}

// Checkpoint captures the model, Adam's moments, the update counter and the
// curriculum in the CPU's checkpoint format (trainer.BuildCheckpoint): a GPU
// checkpoint resumes on the CPU and the other way round.
func (g *Engine) Checkpoint() (*checkpoint.File, error) {
	n := g.e.l.Size
	m, v := make([]float32, n), make([]float32, n)
	err := g.d.do(func() error {
		if err := g.e.getParams(g.params); err != nil {
			return err
		}
		if err := download(m, g.e.m); err != nil {
			return err
		}
		return download(v, g.e.v)
	})
	if err != nil {
		return nil, err
	}
	return trainer.BuildCheckpoint(g.cfg, g.e.l, g.params, m, v, g.updates, g.e.adamStep, g.cur), nil
}

// Restore continues from a checkpoint (written by Checkpoint or by the CPU's
// trainer): parameters, Adam's moments and step, update counter, curriculum.
// The engine must have been built with the checkpoint's config.
func (g *Engine) Restore(f *checkpoint.File) error {
	n := g.e.l.Size
	m, v := make([]float32, n), make([]float32, n)
	update, adamStep, err := trainer.RestoreCheckpoint(f, g.e.l, g.params, m, v, g.cur)
	if err != nil {
		return err
	}
	err = g.d.do(func() error {
		if err := upload(g.e.m, m); err != nil {
			return err
		}
		if err := upload(g.e.v, v); err != nil {
			return err
		}
		return g.e.setParams(g.params)
	})
	if err != nil {
		return err
	}
	g.updates, g.e.adamStep = update, adamStep
	return nil
}

// LoadWeights replaces the model's parameters by f's (-load); Adam's state
// and the counters are left as they are.
func (g *Engine) LoadWeights(f *checkpoint.File) error {
	if err := enginekit.LoadParams(f, g.e.l, g.params); err != nil {
		return err
	}
	return g.d.do(func() error { return g.e.setParams(g.params) })
}

var _ trainer.Engine = (*Engine)(nil)

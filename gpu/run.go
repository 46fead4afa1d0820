//go:build cgo

package gpu

import (
	"fmt"

	"github.com/simdrl/simdrl/env/taperules"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// Engine is the GPU as a trainer.Engine: the device and its engine. Every
// call runs on the device's own goroutine.
type Engine struct {
	cfg    trainer.Config
	task   task.Task
	d      *Device
	e      *engine
	params []float32 // host copy: Params, hashing
	name   string    // the task's, for its errors (task.NameOf)
}

// taskCode is f for the device thread, where the engine runs the task's
// code (its draws, levels and checks): a panic in it is returned as the
// task's *task.PanicError (while: what was being done, "" in a run), as the
// CPU engine returns one, not as a panic of the device thread.
func taskCode(name, while string, f func() error) func() error {
	return func() error { return task.Guard(name, while, f) }
}

// New opens the GPU and builds a model with cfg's initial parameters, as a
// trainer.Engine (cmd builds its engines with NewWithTask, on the task it
// opened once).
func New(cfg trainer.Config) (trainer.Engine, error) {
	g, err := NewEngine(cfg)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// MaxSteps bounds the rollouts the GPU runs: the CPU's bound, which the
// tape task's longest budgets need.
const MaxSteps = trainer.MaxSteps

// NewWithTask is New for the opened task t (cpu.NewWithTask's twin): the
// kernels score the seed task, tasks on the calculator's op table
// (task.Interpreted) and tasks on the tape's machine (taperules.Ruled), and
// refuse any other with one line; every rollout starts at t's context end
// (task.ContextEnd).
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
		return nil, err
	}
	return newEngineOpened(cfg, t, cfg.ValidateOpened)
}

// NewOpened is NewWithTask for a task that task.Open opened, and so
// validated (cpu.NewOpened's twin): t is not validated again.
func NewOpened(cfg trainer.Config, t task.Task) (trainer.Engine, error) {
	g, err := newEngineOpened(cfg, t, cfg.ValidateOpened)
	if err != nil {
		return nil, err
	}
	return g, nil
}

func newEngineWithTask(cfg trainer.Config, t task.Task) (*Engine, error) {
	return newEngineOpened(cfg, t, cfg.ValidateFor)
}

// newEngineOpened is newEngineWithTask, checking cfg against t with
// validate (Config.ValidateFor, or ValidateOpened for an opened task).
func newEngineOpened(cfg trainer.Config, t task.Task, validate func(task.Task) error) (g *Engine, err error) {
	// Sizing the engine runs the task's code (its levels, rules, tables):
	// a panic there is the task's error, never a crash of the caller, on
	// this goroutine and on the device thread alike (taskCode).
	name := task.NameOf(t)
	err = task.Guard(name, "opened", func() error {
		g, err = buildEngine(cfg, t, validate, name)
		return err
	})
	return g, err
}

// buildEngine is newEngineOpened, whose panics are the task's.
func buildEngine(cfg trainer.Config, t task.Task, validate func(task.Task) error, name string) (*Engine, error) {
	if err := validate(t); err != nil {
		return nil, err
	}
	sc, err := scorerOf(t)
	if err == nil && task.IsFielded(t) && sc.kind != scoreHost {
		return nil, fieldsNotHosted(t)
	}
	if task.Masks(t) && (err != nil || sc.kind != scoreHost) { // the native rollouts sample from every token's logit
		return nil, fmt.Errorf("gpu: task %s has a legal-action mask (task.LegalGame, task.Masker), which the CUDA kernels apply only to tasks stepped on the host; train it on the CPU", t.Name())
	}
	if err != nil {
		return nil, err
	}
	if sc.kind == scoreHost && cfg.Context == trainer.ContextRead {
		return nil, &trainer.FieldError{Field: "context", Problem: fmt.Sprintf("read: task %s is stepped on the host, whose policy steps take in the context as a bag only; train it on the CPU", t.Name())}
	}
	if sc.kind == scoreHost && cfg.Replay > 0 { // the replayed programs are teacher-forced rollouts, which the host-stepped path has not
		return nil, &trainer.FieldError{Field: "replay", Problem: fmt.Sprintf("task %s is stepped on the host, where programs are not replayed; train it on the CPU", t.Name())}
	}
	if sc.kind == scoreHost && cfg.Estimator == trainer.EstimatorPPO { // PPO's epochs replay the stored programs teacher-forced, which the host-stepped path has not
		return nil, &trainer.FieldError{Field: "estimator", Problem: fmt.Sprintf("ppo: task %s is stepped on the host, where programs are not replayed; train it on the CPU", t.Name())}
	}
	if cfg.Steps > MaxSteps {
		return nil, &trainer.FieldError{Field: "steps", Problem: fmt.Sprintf("must be at most %d on the GPU, got %d", MaxSteps, cfg.Steps)}
	}
	if _, isTape := t.(taperules.Ruled); isTape && cfg.Context == trainer.ContextRead {
		return nil, &trainer.FieldError{Field: "context", Problem: fmt.Sprintf("read: the CUDA kernels run task %s's machine only on the bag of its context (they have no reading tape kernel); train it on the CPU", t.Name())}
	}
	l, err := enginekit.NewLayout(cfg.Hidden, t)
	if err != nil {
		return nil, err
	}
	l.Read = cfg.Context == trainer.ContextRead // the same tensors; only the rollout differs
	if l.Observations != modelObservations(t) {
		return nil, fmt.Errorf("gpu: task %s has %d observations and its model %d", t.Name(), modelObservations(t), l.Observations)
	}
	// The host's share is refused before the device is opened; the
	// device's when its buffers are planned (newEngine).
	m := hostMemory(cfg, t, l)
	for k, b := range hostGamesMemory(cfg, t) { // a host-stepped task's games (hoststep.go)
		m[k] += b
	}
	if have := enginekit.AvailableMemory(); have > 0 && m.Total() > have {
		return nil, &trainer.ResourceError{Need: m.Total(), Have: have, Knob: m.Knob()}
	}
	d, err := Open()
	if err != nil {
		return nil, err
	}
	g := &Engine{cfg: cfg, task: t, d: d, name: name}
	if err := d.do(taskCode(name, "opened", func() error {
		var err error
		if g.e, err = newEngine(d, cfg, t, l); err != nil {
			return err
		}
		g.params = g.e.host.params
		l.Init(g.params, cfg.Seed) // the CPU's initial parameters, bit for bit
		return g.e.setParams(g.params)
	})); err != nil {
		d.Close()
		return nil, err
	}
	return g, nil
}

func (g *Engine) Backend() string  { return "cuda" }
func (g *Engine) Describe() string { return g.d.Describe() }

// Task is the task the engine was built for (trainer.New takes it).
func (g *Engine) Task() task.Task { return g.task }

// SetInterrupt makes Update, EvaluateAll and GreedyPrograms stop at their
// next check once stop is closed, with trainer.ErrInterrupted and nothing
// changed (where each checks: engine.update, engine.evaluate,
// engine.greedyPrograms, engine.drawOnHost); nil: never. It is called
// between calls, so the next Device.do orders it before the device thread
// reads it.
func (g *Engine) SetInterrupt(stop <-chan struct{}) { g.e.stop = stop }

// Update runs training update p.Update (trainer.Engine).
func (g *Engine) Update(p trainer.Plan) (st trainer.UpdateStats, err error) {
	err = g.d.do(taskCode(g.name, "", func() error {
		var err error
		st, err = g.e.update(p)
		return err
	}))
	return st, err
}

// EvaluateAll evaluates every level on split (the seed task holds nothing
// out: both splits are the same draws). An interrupt stops it between levels
// and within one (engine.evaluate).
func (g *Engine) EvaluateAll(n int, round uint32, split task.Split) (ev []trainer.EvalResult, err error) {
	ev = make([]trainer.EvalResult, len(g.task.Levels()))
	err = g.d.do(taskCode(g.name, "", func() error {
		for s := range ev {
			var err error
			if ev[s], err = g.e.evaluate(s, n, round, split); err != nil {
				return err
			}
		}
		return nil
	}))
	return ev, err
}

func (g *Engine) GreedyPrograms(tasks []task.Instance) (progs []int32, err error) {
	err = g.d.do(taskCode(g.name, "", func() error {
		var err error
		progs, err = g.e.greedyPrograms(tasks)
		return err
	}))
	return progs, err
}

func (g *Engine) Close() {
	g.d.do(func() error { g.e.free(); return nil })
	g.d.Close()
}

// Params downloads the parameters into the host copy and returns it
// (trainer.Engine: read-only, until the next call).
func (g *Engine) Params() ([]float32, error) {
	if err := g.d.do(func() error { return g.e.getParams(g.params) }); err != nil {
		return nil, err
	}
	return g.params, nil
}

// SetParams uploads params and refreshes the derived tensors.
func (g *Engine) SetParams(params []float32) error {
	if len(params) != len(g.params) {
		return fmt.Errorf("gpu: %d parameters for a model of %d", len(params), len(g.params))
	}
	copy(g.params, params)
	return g.d.do(func() error { return g.e.setParams(g.params) })
}

// Moments downloads Adam's moments into the host's copies and returns them
// (trainer.Engine: read-only, until the next call), and its step count.
func (g *Engine) Moments() (m, v []float32, step int, err error) {
	m, v = g.e.host.m, g.e.host.v
	err = g.d.do(func() error {
		if err := download(m, g.e.m); err != nil {
			return err
		}
		return download(v, g.e.v)
	})
	if err != nil {
		return nil, nil, 0, err
	}
	return m, v, g.e.adamStep, nil
}

// SetMoments uploads Adam's moments and sets its step count (-resume).
func (g *Engine) SetMoments(m, v []float32, step int) error {
	if n := g.e.l.Size; len(m) != n || len(v) != n {
		return fmt.Errorf("gpu: moments of %d and %d for a model of %d", len(m), len(v), n)
	}
	err := g.d.do(func() error {
		if err := upload(g.e.m, m); err != nil {
			return err
		}
		return upload(g.e.v, v)
	})
	if err != nil {
		return err
	}
	g.e.adamStep = step
	return nil
}

var _ trainer.Engine = (*Engine)(nil)

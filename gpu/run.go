//go:build cgo

package gpu

import (
	"errors"
	"io"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/trainer"
)

// Run trains with cfg on the GPU as trainer.Run does on the CPU: the same
// initial parameters, tasks and sampling numbers, the same printed lines and
// the same report, with Backend "cuda". It returns the report even when
// training stops early, with what was done until then; it never falls back
// to the CPU.
func Run(cfg trainer.Config, out io.Writer) (*trainer.Report, error) {
	return RunWith(cfg, out, trainer.Options{})
}

// RunWith is Run with trainer.Options: Metrics, Interrupt and Progress are
// honoured; Trainer and Save (checkpoints) are not supported on the GPU yet.
// The loop, its output and the report are trainer.Drive's, as on the CPU.
func RunWith(cfg trainer.Config, out io.Writer, opt trainer.Options) (*trainer.Report, error) {
	if opt.Trainer != nil || opt.Save != nil {
		return nil, errors.New("gpu: checkpoints (-save, -resume, -load) are not supported with -device cuda yet")
	}
	g, err := newGPUEngine(cfg)
	if err != nil {
		return nil, err
	}
	return trainer.Drive(g, out, opt)
}

// gpuEngine is the GPU as a trainer.Engine: the device, its engine and the
// host-side curriculum. Every call runs on the device's own goroutine.
type gpuEngine struct {
	cfg     trainer.Config
	d       *Device
	e       *engine
	cur     *trainer.Curriculum
	updates int
	params  []float32 // host copy for hashing
}

func newGPUEngine(cfg trainer.Config) (*gpuEngine, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	l, err := gru.NewLayout(gru.Config{Vocab: env.Vocab, Hidden: cfg.Hidden, Stages: env.NumStages})
	if err != nil {
		return nil, err
	}
	d, err := Open()
	if err != nil {
		return nil, err
	}
	g := &gpuEngine{cfg: cfg, d: d, cur: trainer.NewCurriculum(cfg), params: make([]float32, l.Size)}
	l.Init(g.params, cfg.Seed) // the CPU's initial parameters, bit for bit
	if err := d.do(func() error {
		var err error
		if g.e, err = newEngine(d, cfg, l); err != nil {
			return err
		}
		return g.e.setParams(g.params)
	}); err != nil {
		d.Close()
		return nil, err
	}
	return g, nil
}

func (g *gpuEngine) Config() trainer.Config          { return g.cfg }
func (g *gpuEngine) Backend() string                 { return "cuda" }
func (g *gpuEngine) Describe() string                { return g.d.Describe() }
func (g *gpuEngine) Curriculum() *trainer.Curriculum { return g.cur }
func (g *gpuEngine) Updates() int                    { return g.updates }

func (g *gpuEngine) Update() (st trainer.UpdateStats, err error) {
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

func (g *gpuEngine) EvaluateAll(n int, round uint32) (ev [env.NumStages]trainer.EvalResult, err error) {
	err = g.d.do(func() error {
		for s := range ev {
			var err error
			if ev[s], err = g.e.evaluate(s, n, round); err != nil {
				return err
			}
		}
		return nil
	})
	return ev, err
}

func (g *gpuEngine) Explain(stage, count int) (exs []trainer.Explanation, err error) {
	err = g.d.do(func() error {
		var err error
		exs, err = g.e.explain(stage, count)
		return err
	})
	return exs, err
}

func (g *gpuEngine) ParamSHA256() (string, error) {
	if err := g.d.do(func() error { return g.e.getParams(g.params) }); err != nil {
		return "", err
	}
	return trainer.HashParams(g.params), nil
}

func (g *gpuEngine) Close() {
	g.d.do(func() error { g.e.free(); return nil })
	g.d.Close()
}

var _ trainer.Engine = (*gpuEngine)(nil)

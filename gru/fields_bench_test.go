package gru_test

import (
	"testing"

	"github.com/simdrl/simdrl/gru"
)

// BenchmarkInputs is one chunk's training work (Derived.Compute, a sampled
// rollout of T steps, Backward, TableGradient.Apply) at the probe's sizes
// (issue 53: V = 24 tokens, d = 96, 64 episodes of 32 steps) for each way
// of feeding what a task observes:
//
//	none:     no observation (the open-loop model);
//	obs810:   one observation of 810 values, the V·O input table;
//	fields810: the same 810 values as a field (beside a constant field of
//	          one value, so that it takes the fields path): Σ O_f rows;
//	pool:     four fields of 200 values and a vector of 8 (a pool of four
//	          values, each also as numbers).
func BenchmarkInputs(b *testing.B) {
	const V, d, n, T = 24, 96, 64, 32
	for _, c := range []struct {
		name string
		cfg  gru.Config
	}{
		{"none", gru.Config{}},
		{"obs810", gru.Config{Observations: 810}},
		{"fields810", gru.Config{Fields: []int{810, 1}}},
		{"pool", gru.Config{Fields: []int{200, 200, 200, 200}, Vector: 8}},
	} {
		b.Run(c.name, func(b *testing.B) {
			cfg := c.cfg
			cfg.Vocab, cfg.Hidden, cfg.Levels = V, d, 1
			l, err := gru.NewLayout(cfg)
			if err != nil {
				b.Fatal(err)
			}
			params := make([]float32, l.Size)
			l.Init(params, 1)
			if err := l.SetStart(0); err != nil {
				b.Fatal(err)
			}
			w, err := gru.NewWorkspace(l, n, T)
			if err != nil {
				b.Fatal(err)
			}
			dv, table, grad := gru.NewDerived(l), gru.NewTableGradient(l), make([]float32, l.Size)
			for i := range w.DLogp {
				w.DLogp[i], w.DValue[i] = 0.1, 0.05
			}
			obs := func(bb, s, k int) int32 { return int32((bb*7 + s*13 + k*3) % 200) }
			b.ResetTimer()
			for range b.N {
				dv.Compute(l, params)
				w.Reset(n)
				for bb := 0; bb < n; bb++ {
					w.SetContext(bb, 0, []int32{1, 0})
				}
				w.Start(params)
				for s := 0; s < T; s++ {
					in := w.Inputs(s)
					for bb := range in {
						prev := int32(0)
						if s > 0 {
							prev = w.Action(bb, s-1)
						}
						in[bb] = l.Input(prev, obs(bb, s, 0))
					}
					fs := w.Fields(s)
					for i := range fs {
						if l.Fields[i%len(l.Fields)] > 1 {
							fs[i] = obs(i/len(l.Fields), s, i%len(l.Fields))
						} else {
							fs[i] = 0
						}
					}
					vs := w.Vector(s)
					for i := range vs {
						vs[i] = float32(i%5) * 0.1
					}
					w.Step(params, dv, s, gru.Greedy, gru.Stream{})
				}
				table.Clear()
				w.Backward(params, dv, grad, table.Buffer())
				table.Apply(params, grad)
			}
		})
	}
}

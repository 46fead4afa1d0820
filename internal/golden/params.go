package golden

import (
	"fmt"
	"math"

	"github.com/simdrl/simdrl/gru"
)

// Layout builds the model layout the golden file describes.
func (m *Model) Layout() (*gru.Layout, error) {
	if m.Context != "" && m.Context != "read" && m.Context != "bag" {
		return nil, fmt.Errorf("golden: context %q (bag or read)", m.Context)
	}
	shown := 0 // the batches' longest context, the end not counted
	for _, b := range m.Batches {
		for _, c := range b.Ctx {
			shown = max(shown, len(c)-1)
		}
	}
	return gru.NewLayout(gru.Config{Vocab: m.Vocab, Hidden: m.Hidden, Levels: 3, Observations: m.Observations,
		Read: m.Context == "read", Shown: shown, Fields: m.Fields, Vector: m.Vector})
}

// LoadInit loads the golden model from dir with its layout and its initial
// parameters, flat in the layout's order: what every golden test starts from.
func LoadInit(dir string) (*Model, *gru.Layout, []float32, error) {
	m, err := LoadModel(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	l, err := m.Layout()
	if err != nil {
		return nil, nil, nil, err
	}
	params, err := Flatten(l, Tensors(m.Init))
	if err != nil {
		return nil, nil, nil, err
	}
	return m, l, params, nil
}

// Flatten packs named tensors (init, after, or a batch's grad) into the flat
// layout, checking that every tensor is present with the right size.
func Flatten(l *gru.Layout, named func(name string) ([]float64, bool)) ([]float32, error) {
	out := make([]float32, l.Size)
	for _, t := range l.Tensors {
		data, ok := named(t.Name)
		if !ok {
			return nil, fmt.Errorf("golden: tensor %s missing", t.Name)
		}
		if len(data) != t.Size {
			return nil, fmt.Errorf("golden: tensor %s has %d values, want %d", t.Name, len(data), t.Size)
		}
		for i, v := range data {
			out[t.Offset+i] = float32(v)
		}
	}
	return out, nil
}

// Tensors adapts a map of Tensor for Flatten.
func Tensors(m map[string]Tensor) func(string) ([]float64, bool) {
	return func(name string) ([]float64, bool) { t, ok := m[name]; return t.Data, ok }
}

// Slices adapts a map of flat slices for Flatten.
func Slices(m map[string][]float64) func(string) ([]float64, bool) {
	return func(name string) ([]float64, bool) { t, ok := m[name]; return t, ok }
}

// RelErr is ‖got − want‖ / ‖want‖ (or ‖got − want‖ when want is zero).
func RelErr(got []float32, want []float64) float64 {
	var num, den float64
	for i, w := range want {
		d := float64(got[i]) - w
		num += d * d
		den += w * w
	}
	if den == 0 {
		return math.Sqrt(num)
	}
	return math.Sqrt(num / den)
}

// Tolerance is the parity bound: relative error per tensor.
const Tolerance = 1e-4

// Load reads the golden batch b into a workspace of layout l: contexts,
// levels and the teacher-forced actions, and checks its observations (Run
// feeds them).
func (b *Batch) Load(l *gru.Layout, w *gru.Workspace) error {
	B := len(b.Ctx)
	if B == 0 || len(b.Level) != B || len(b.Actions) != B {
		return fmt.Errorf("golden: batch has %d contexts, %d levels, %d action rows", B, len(b.Level), len(b.Actions))
	}
	if l.Observations > 0 && len(b.Obs) != B {
		return fmt.Errorf("golden: batch has %d observation rows for %d contexts", len(b.Obs), B)
	}
	for i, row := range b.Obs {
		if len(row) != w.T {
			return fmt.Errorf("golden: %d observations in row %d, want %d", len(row), i, w.T)
		}
		for _, o := range row {
			if o < 0 || int(o) >= l.Observations {
				return fmt.Errorf("golden: observation %d in row %d outside 0..%d", o, i, l.Observations-1)
			}
		}
	}
	if err := b.checkFields(l, w.T); err != nil {
		return err
	}
	w.Reset(B)
	for i := 0; i < B; i++ {
		w.SetContext(i, b.Level[i], b.Ctx[i])
		if len(b.Actions[i]) != w.T {
			return fmt.Errorf("golden: %d actions in row %d, want %d", len(b.Actions[i]), i, w.T)
		}
		for t, a := range b.Actions[i] {
			w.SetAction(i, t, a)
		}
	}
	return nil
}

// Run plays the loaded batch teacher-forced: Forward without observations;
// with, Start and Steps whose input t is Input(action t−1 (Start at t = 0),
// Obs[b][t]), as make_golden.py feeds them.
func (b *Batch) Run(l *gru.Layout, w *gru.Workspace, params []float32, dv *gru.Derived) {
	if l.Fielded() {
		b.runFields(l, w, params, dv)
		return
	}
	if l.Observations == 0 {
		w.Forward(params, dv, gru.Teacher, gru.Stream{})
		return
	}
	w.Start(params)
	for t := 0; t < w.T; t++ {
		in := w.Inputs(t)
		for i := range in {
			prev := l.Start
			if t > 0 {
				prev = w.Action(i, t-1)
			}
			in[i] = l.Input(prev, b.Obs[i][t])
		}
		w.Step(params, dv, t, gru.Teacher, gru.Stream{})
	}
}

// checkFields checks a fielded batch's fields and vectors: one per row
// and step, each field inside its size.
func (b *Batch) checkFields(l *gru.Layout, steps int) error {
	if !l.Fielded() {
		return nil
	}
	B := len(b.Ctx)
	if len(b.Fields) != B || len(b.Vec) != B {
		return fmt.Errorf("golden: batch has %d field rows and %d vector rows for %d contexts", len(b.Fields), len(b.Vec), B)
	}
	for i := range B {
		if len(b.Fields[i]) != steps || len(b.Vec[i]) != steps {
			return fmt.Errorf("golden: row %d has %d steps of fields and %d of vectors, want %d", i, len(b.Fields[i]), len(b.Vec[i]), steps)
		}
		for t := range steps {
			if len(b.Fields[i][t]) != len(l.Fields) || len(b.Vec[i][t]) != l.Vector {
				return fmt.Errorf("golden: row %d step %d has %d fields and a vector of %d", i, t, len(b.Fields[i][t]), len(b.Vec[i][t]))
			}
			for f, o := range b.Fields[i][t] {
				if o < 0 || int(o) >= l.Fields[f] {
					return fmt.Errorf("golden: field %d is %d in row %d step %d, outside 0..%d", f, o, i, t, l.Fields[f]-1)
				}
			}
		}
	}
	return nil
}

// runFields is Run for a fielded layout: step t's input is action t−1
// (Start at t = 0) with Fields[b][t] and Vec[b][t], as make_golden.py
// feeds them (a reading model's context steps carry step 0's).
func (b *Batch) runFields(l *gru.Layout, w *gru.Workspace, params []float32, dv *gru.Derived) {
	nf, F := len(l.Fields), l.Vector
	w.Start(params)
	for t := 0; t < w.T; t++ {
		in, fs, vs := w.Inputs(t), w.Fields(t), w.Vector(t)
		for i := range in {
			in[i] = l.Start
			if t > 0 {
				in[i] = w.Action(i, t-1)
			}
			copy(fs[i*nf:(i+1)*nf], b.Fields[i][t])
			copy(vs[i*F:(i+1)*F], b.Vec[i][t])
		}
		w.Step(params, dv, t, gru.Teacher, gru.Stream{})
	}
}

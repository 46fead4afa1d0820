package enginekit

import (
	"fmt"
	"math"
	"strings"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/gru"
)

// The tensors of a checkpoint: the model under PyTorch's state_dict names
// and shapes (a PyTorch module of the seed's shape loads it with
// load_state_dict), Adam's moments as optimizer.exp_avg.<name> and
// optimizer.exp_avg_sq.<name>.
const (
	expAvgPrefix   = "optimizer.exp_avg."
	expAvgSqPrefix = "optimizer.exp_avg_sq."
	obsEmbName     = "obs_emb.weight" // a model with observations' last tensor (gru.Layout.ObsEmb)
)

// AppendTensors appends the parameters and Adam's moments (flat, in l's
// order) to f, as views of the given buffers.
func AppendTensors(f *checkpoint.File, l *gru.Layout, params, m, v []float32) {
	for _, tn := range l.Tensors {
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: tn.Name, Shape: tn.Shape, Data: tn.View(params)})
	}
	for _, tn := range l.Tensors {
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: expAvgPrefix + tn.Name, Shape: tn.Shape, Data: tn.View(m)})
	}
	for _, tn := range l.Tensors {
		f.Tensors = append(f.Tensors, checkpoint.Tensor{Name: expAvgSqPrefix + tn.Name, Shape: tn.Shape, Data: tn.View(v)})
	}
}

// Checked is a checkpoint's parameters and moments, every one checked
// (ReadTensors), not yet copied anywhere.
type Checked struct {
	l   *gru.Layout
	src [3][][]float32 // params, m, v: per tensor of l
}

// ReadTensors checks every parameter and moment of f against l (names,
// shapes, values: no NaN or Inf anywhere, no negative second moment) and
// that f holds no other tensors (a resumed checkpoint is the whole state)
// but those of the run's state that the caller reads and checks itself
// (state reports them).
func ReadTensors(f *checkpoint.File, l *gru.Layout, state func(name string) bool) (*Checked, error) {
	c := &Checked{l: l}
	for i, prefix := range []string{"", expAvgPrefix, expAvgSqPrefix} {
		var err error
		if c.src[i], err = checkTensors(f, l, prefix); err != nil {
			return nil, err
		}
	}
	if err := checkNoOtherTensors(f, l, state); err != nil {
		return nil, err
	}
	return c, nil
}

// CopyTo copies the checked tensors into params, m and v (flat, in l's order).
func (c *Checked) CopyTo(params, m, v []float32) {
	for i, dst := range [][]float32{params, m, v} {
		copyChecked(c.l, c.src[i], dst)
	}
}

// LoadParams copies the model tensors of f into params (flat, in l's order),
// checking every name and shape (-load on any engine). The optimiser is not
// taken, but a file that holds Adam's moments has them checked as -resume
// would (all present, finite, second moments not negative): "any tensor" of
// a checkpoint is sound or the file is refused. A weights-only file (no
// optimizer.* tensor at all) loads. A file of a model with observations
// (obs_emb.weight, field_emb.f, vec) does not load into one that observes
// otherwise (ObservationError).
func LoadParams(f *checkpoint.File, l *gru.Layout, params []float32) error {
	src, err := checkTensors(f, l, "")
	if err != nil {
		return err
	}
	// Its other tensors fit, but a model that observes more (obs_emb
	// without observations, fields beyond this model's) would be another
	// policy without them.
	ours := make(map[string]bool, len(l.Tensors))
	for _, tn := range l.Tensors {
		ours[tn.Name] = true
	}
	for _, t := range f.Tensors {
		if err := observationMismatch(f, l, t.Name, false); !ours[t.Name] && err != nil {
			return err
		}
	}
	for _, prefix := range []string{expAvgPrefix, expAvgSqPrefix} {
		if hasPrefix(f, prefix) {
			if _, err := checkTensors(f, l, prefix); err != nil {
				return err
			}
		}
	}
	copyChecked(l, src, params)
	return nil
}

// hasPrefix reports whether some tensor of f is named prefix….
func hasPrefix(f *checkpoint.File, prefix string) bool {
	for _, t := range f.Tensors {
		if strings.HasPrefix(t.Name, prefix) {
			return true
		}
	}
	return false
}

// checkTensors returns the data of the tensors named prefix+name, in layout
// order, after checking that each exists, has the layout's shape and length,
// and holds only finite values (NaN or Inf in a weight or a moment would
// spread through the first update, or make an evaluation meaningless), and,
// for Adam's second moment, no negative value (its square root is taken).
func checkTensors(f *checkpoint.File, l *gru.Layout, prefix string) ([][]float32, error) {
	src := make([][]float32, len(l.Tensors))
	for i, tn := range l.Tensors {
		ct, ok := f.Lookup(prefix + tn.Name)
		if err := observationMismatch(f, l, prefix+tn.Name, true); !ok && err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("checkpoint has no tensor %s", prefix+tn.Name)
		}
		if ct.Type() != checkpoint.F32 {
			return nil, fmt.Errorf("checkpoint tensor %s has dtype %s; the model's tensors are F32", ct.Name, ct.Type())
		}
		if !equalShape(ct.Shape, tn.Shape) {
			return nil, &ShapeError{Tensor: ct.Name, Got: ct.Shape, Want: tn.Shape}
		}
		if len(ct.Data) != tn.Size {
			return nil, fmt.Errorf("checkpoint tensor %s has shape %v but %d values", ct.Name, ct.Shape, len(ct.Data))
		}
		for j, x := range ct.Data {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, fmt.Errorf("checkpoint tensor %s holds a non-finite value (%s at index %d)", ct.Name, nonFinite(x), j)
			}
			if prefix == expAvgSqPrefix && x < 0 {
				return nil, fmt.Errorf("checkpoint tensor %s holds a negative value (%v at index %d); Adam's second moment is never negative", ct.Name, x, j)
			}
		}
		src[i] = ct.Data
	}
	return src, nil
}

// copyChecked copies what checkTensors returned into dst.
func copyChecked(l *gru.Layout, src [][]float32, dst []float32) {
	for i, tn := range l.Tensors {
		copy(tn.View(dst), src[i])
	}
}

// nonFinite names a NaN or infinite x.
func nonFinite(x float32) string {
	switch {
	case math.IsInf(float64(x), 1):
		return "+Inf"
	case math.IsInf(float64(x), -1):
		return "-Inf"
	}
	return "NaN"
}

// checkNoOtherTensors rejects a tensor of f that is neither a parameter of l
// nor one of its Adam moments (a resumed checkpoint is the whole state).
func checkNoOtherTensors(f *checkpoint.File, l *gru.Layout, state func(name string) bool) error {
	want := make(map[string]bool, 3*len(l.Tensors))
	for _, tn := range l.Tensors {
		want[tn.Name], want[expAvgPrefix+tn.Name], want[expAvgSqPrefix+tn.Name] = true, true, true
	}
	for _, t := range f.Tensors {
		if !want[t.Name] && state(t.Name) {
			continue
		}
		if err := observationMismatch(f, l, t.Name, false); !want[t.Name] && err != nil {
			return err
		}
		if !want[t.Name] {
			return fmt.Errorf("checkpoint has an unexpected tensor %q (neither a parameter of this model nor an Adam moment of one)", t.Name)
		}
	}
	return nil
}

func equalShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

package enginekit

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/gru"
)

// ObservationError is a checkpoint whose model observes otherwise than the
// run's: a tensor of what one observes (obs_emb, field_emb.f, vec) that the
// other lacks. Checkpoint and Model say what each observes ("nothing", "24
// tokens", "1 field of 24 values and a vector of 9"), so that a command line
// can name the task option it was trained with.
type ObservationError struct {
	Tensor     string
	Missing    bool // the model has Tensor and the checkpoint not; else the other way round
	Checkpoint string
	Model      string
}

func (e *ObservationError) Error() string {
	what := fmt.Sprintf("checkpoint has a tensor %q that this model lacks", e.Tensor)
	if e.Missing {
		what = "checkpoint has no tensor " + e.Tensor
	}
	return what + ": its model observes " + e.Checkpoint + ", this task's model observes " + e.Model
}

// isObservationTensor reports whether name (without an optimizer prefix) is
// a tensor of what a model observes.
func isObservationTensor(name string) bool {
	return name == obsEmbName || strings.HasPrefix(name, "field_emb.") || strings.HasPrefix(name, "vec.")
}

// observationMismatch is the ObservationError of tensor name (its
// optimizer prefix kept) when f's model and l observe differently, else nil.
func observationMismatch(f *checkpoint.File, l *gru.Layout, name string, missing bool) error {
	if !isObservationTensor(strings.TrimPrefix(strings.TrimPrefix(name, expAvgSqPrefix), expAvgPrefix)) {
		return nil
	}
	ck, model := fileObserves(f), layoutObserves(l)
	if ck == model {
		return nil
	}
	return &ObservationError{Tensor: name, Missing: missing, Checkpoint: ck, Model: model}
}

// layoutObserves says what a model of layout l observes.
func layoutObserves(l *gru.Layout) string {
	return observes(l.Observations, l.Fields, l.Vector)
}

// fileObserves says what the model of checkpoint f observes, from its
// tensors' names and shapes (its widths from the first dimension).
func fileObserves(f *checkpoint.File) string {
	obs, vector := 0, 0
	if t, ok := f.Lookup(obsEmbName); ok && len(t.Shape) == 2 {
		obs = t.Shape[0]
	}
	var fields []int
	for i := 0; ; i++ {
		t, ok := f.Lookup(fmt.Sprintf("field_emb.%d.weight", i))
		if !ok || len(t.Shape) != 2 {
			break
		}
		fields = append(fields, t.Shape[0])
	}
	if t, ok := f.Lookup("vec.weight"); ok && len(t.Shape) == 2 {
		vector = t.Shape[1]
	}
	return observes(obs, fields, vector)
}

// observes phrases one observation vocabulary, or fields and a vector.
func observes(obs int, fields []int, vector int) string {
	var s string
	switch {
	case obs > 0:
		return fmt.Sprintf("%d tokens", obs)
	case len(fields) == 1:
		s = fmt.Sprintf("1 field of %d values", fields[0])
	case len(fields) > 1:
		sizes := make([]string, len(fields))
		for i, n := range fields {
			sizes[i] = fmt.Sprint(n)
		}
		s = fmt.Sprintf("%d fields (%s values)", len(fields), strings.Join(sizes, ", "))
	}
	switch {
	case vector > 0 && s != "":
		return s + fmt.Sprintf(" and a vector of %d", vector)
	case vector > 0:
		return fmt.Sprintf("a vector of %d", vector)
	case s == "":
		return "nothing"
	}
	return s
}

package enginekit

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/gru"
)

// observingLayouts are the ways a model observes, as the built-in tasks
// make them: nothing, one token of 24 values, one field and a vector (the
// 24 Game's observe=vector), six fields and the vector (observe=fields).
func observingLayouts(t *testing.T) map[string]*gru.Layout {
	t.Helper()
	out := map[string]*gru.Layout{}
	for name, c := range map[string]gru.Config{
		"nothing": {},
		"token":   {Observations: 24},
		"vector":  {Fields: []int{24}, Vector: 9},
		"fields":  {Fields: []int{24, 5, 5, 5, 5, 5}, Vector: 9},
	} {
		c.Vocab, c.Hidden, c.Levels = 30, 8, 1
		l, err := gru.NewLayout(c)
		require.NoError(t, err, name)
		out[name] = l
	}
	return out
}

// fileOf is a checkpoint of a model of layout l, with its moments.
func fileOf(l *gru.Layout) *checkpoint.File {
	p, m, v := make([]float32, l.Size), make([]float32, l.Size), make([]float32, l.Size)
	f := &checkpoint.File{Metadata: map[string]string{}}
	AppendTensors(f, l, p, m, v)
	return f
}

// TestObservationMismatchNamesBoth: a checkpoint of a model that observes
// one way never loads or resumes into a model that observes another. An
// observe=fields checkpoint loaded into an observe=vector model used to
// load, silently dropping five of its fields' embeddings; the others said
// "no tensor field_emb.0.weight" and no more. Each refusal is now an
// ObservationError that says what each model observes.
func TestObservationMismatchNamesBoth(t *testing.T) {
	ls := observingLayouts(t)
	says := map[string]string{
		"nothing": "nothing",
		"token":   "24 tokens",
		"vector":  "1 field of 24 values and a vector of 9",
		"fields":  "6 fields (24, 5, 5, 5, 5, 5 values) and a vector of 9",
	}
	for from, lf := range ls {
		f := fileOf(lf)
		for into, li := range ls {
			name := from + " into " + into
			p := make([]float32, li.Size)
			loadErr := LoadParams(f, li, p)
			_, readErr := ReadTensors(f, li, func(string) bool { return false })
			if from == into {
				require.NoError(t, loadErr, name)
				require.NoError(t, readErr, name)
				continue
			}
			for _, err := range []error{loadErr, readErr} {
				var oe *ObservationError
				require.True(t, errors.As(err, &oe), "%s: %v", name, err)
				require.Equal(t, says[from], oe.Checkpoint, name)
				require.Equal(t, says[into], oe.Model, name)
				require.Contains(t, err.Error(), "its model observes "+says[from]+", this task's model observes "+says[into], name)
			}
		}
	}
}

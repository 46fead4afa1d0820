package gru_test

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/stretchr/testify/require"
)

// fieldModel is a small model whose inputs carry fields and a vector.
func fieldModel(t *testing.T, c gru.Config, seed uint64) (*gru.Layout, []float32) {
	l, err := gru.NewLayout(c)
	require.NoError(t, err)
	params := make([]float32, l.Size)
	l.Init(params, seed)
	require.NoError(t, l.SetStart(2))
	return l, params
}

// TestLayoutWithFields: the fields' embeddings and the vector's layer come
// after every tensor of a model without them, which keep their offsets and
// initial values; one field and no vector is the observation model itself.
func TestLayoutWithFields(t *testing.T) {
	plain, p0 := fieldModel(t, gru.Config{Vocab: 7, Hidden: 8, Levels: 2}, 3)
	l, p := fieldModel(t, gru.Config{Vocab: 7, Hidden: 8, Levels: 2, Fields: []int{3, 5}, Vector: 4}, 3)
	var names []string
	for _, tn := range l.Tensors[len(plain.Tensors):] {
		names = append(names, tn.Name)
	}
	require.Equal(t, []string{"field_emb.0.weight", "field_emb.1.weight", "vec.weight", "vec.bias"}, names)
	require.Equal(t, plain.Tensors, l.Tensors[:len(plain.Tensors)])
	require.Equal(t, p0, p[:plain.Size])
	require.Equal(t, plain.Size+8*8+8*4+8, l.Size)
	require.Equal(t, gru.Tensor{Name: "field_emb.0.weight", Shape: []int{8, 8}, Offset: plain.Size, Size: 64}, l.FieldEmb)
	require.Equal(t, 7, l.InputRows(), "a fielded input is the action; its fields are apart")

	one, err := gru.NewLayout(gru.Config{Vocab: 7, Hidden: 8, Levels: 2, Fields: []int{5}})
	require.NoError(t, err)
	obs, err := gru.NewLayout(gru.Config{Vocab: 7, Hidden: 8, Levels: 2, Observations: 5})
	require.NoError(t, err)
	require.Equal(t, obs, one, "one field without a vector is Observations")
	require.False(t, one.Fielded())
}

// TestLayoutFieldsRefused: an empty field, too many, or fields beside
// Observations are errors.
func TestLayoutFieldsRefused(t *testing.T) {
	for _, c := range []gru.Config{
		{Vocab: 7, Hidden: 8, Levels: 1, Fields: []int{3, 0}},
		{Vocab: 7, Hidden: 8, Levels: 1, Vector: -1},
		{Vocab: 7, Hidden: 8, Levels: 1, Vector: gru.MaxVector + 1},
		{Vocab: 7, Hidden: 8, Levels: 1, Fields: make([]int, gru.MaxFields+1)},
		{Vocab: 7, Hidden: 8, Levels: 1, Fields: []int{2, 2}, Observations: 3},
	} {
		_, err := gru.NewLayout(c)
		require.Error(t, err, "%+v", c)
	}
}

// fieldRollout plays a teacher-forced rollout of a fielded layout: the
// fields and vector at step s of row b are field(b, s, f) and vec(b, s, k),
// and the rows in retire[s] retire after step s.
func fieldRollout(l *gru.Layout, w *gru.Workspace, params []float32, dv *gru.Derived, retire map[int][]int) {
	n := w.Rows()
	nf, F := len(l.Fields), l.Vector
	w.Start(params)
	for s := 0; s < w.T; s++ {
		if s > 0 {
			for b := range w.Inputs(s) {
				w.Inputs(s)[b] = w.Action(b, s-1)
			}
		}
		fs, vs := w.Fields(s), w.Vector(s)
		for b := 0; b < n; b++ {
			for f := 0; f < nf; f++ {
				fs[b*nf+f] = int32((b + 3*s + f) % l.Fields[f])
			}
			for k := 0; k < F; k++ {
				vs[b*F+k] = float32(math.Sin(float64(b*7+s*3+k))) * 0.8
			}
		}
		w.Step(params, dv, s, gru.Teacher, gru.Stream{})
		if rows, ok := retire[s]; ok {
			done := make([]bool, n)
			for _, b := range rows {
				done[b] = true
			}
			w.Retire(s, done)
		}
	}
}

// TestFieldGradientFiniteDifferences: through whole rollouts whose inputs
// carry two fields and a vector (all rows live, rows retired midway, and a
// reading layout), Backward and TableGradient.Apply give the gradient of
// every tensor the input is made of as central differences of the loss do.
func TestFieldGradientFiniteDifferences(t *testing.T) {
	const V, d, T, n = 5, 4, 3, 4
	for _, tc := range []struct {
		name   string
		read   bool
		retire map[int][]int
	}{
		{"live", false, nil},
		{"retired", false, map[int][]int{0: {1}, 1: {3}}},
		{"reading", true, map[int][]int{1: {0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, params := fieldModel(t, gru.Config{Vocab: V, Hidden: d, Levels: 2, Fields: []int{3, 2}, Vector: 3, Read: tc.read, Shown: 3}, 9)
			w, err := gru.NewWorkspace(l, n, T)
			require.NoError(t, err)
			w.Reset(n)
			for b := 0; b < n; b++ {
				w.SetContext(b, b%2, append([]int32{int32(b % V), 1, 3}[:1+b%3], 2))
				for s := 0; s < T; s++ {
					w.SetAction(b, s, int32((b+s)%V))
				}
			}
			gone := map[[2]int]bool{} // (b, s) after b retired
			for s, rows := range tc.retire {
				for _, b := range rows {
					for u := s + 1; u < T; u++ {
						gone[[2]int{b, u}] = true
					}
				}
			}
			for i := range w.DLogp {
				w.DLogp[i], w.DEnt[i], w.DValue[i] = float32(i%3)-1, 0.25, float32(i%2)+0.5
				if gone[[2]int{i % n, i / n}] {
					w.DLogp[i], w.DEnt[i], w.DValue[i] = 0, 0, 0
				}
			}
			loss := func() float64 {
				dv := gru.NewDerived(l)
				dv.Compute(l, params)
				fieldRollout(l, w, params, dv, tc.retire)
				sum := 0.0
				for b := 0; b < n; b++ {
					for s := 0; s < T; s++ {
						if gone[[2]int{b, s}] {
							continue
						}
						i := s*n + b
						sum += float64(w.DLogp[i])*float64(w.Logp(b, s)) + float64(w.DEnt[i])*float64(w.Entropy(b, s)) +
							float64(w.DValue[i])*float64(w.Value(b, s))
					}
				}
				return sum
			}
			loss()
			dv := gru.NewDerived(l)
			dv.Compute(l, params)
			grad := make([]float32, l.Size)
			table := gru.NewTableGradient(l)
			w.Backward(params, dv, grad, table.Buffer())
			table.Apply(params, grad)
			for _, tn := range []gru.Tensor{l.FieldEmb, l.VecW, l.VecB, l.Emb, l.WIH, l.BIH, l.WHH} {
				var norm float64
				for i := 0; i < tn.Size; i++ {
					p := &params[tn.Offset+i]
					orig := *p
					const eps = 1e-2
					*p = orig + eps
					up := loss()
					*p = orig - eps
					down := loss()
					*p = orig
					fd := (up - down) / (2 * eps)
					g := float64(grad[tn.Offset+i])
					require.InDeltaf(t, fd, g, 2e-3+2e-2*math.Abs(fd), "%s[%d]", tn.Name, i)
					norm += g * g
				}
				require.Greater(t, norm, 1e-6, "%s gets a gradient", tn.Name)
			}
		})
	}
}

// TestFieldsBounded: a field value outside its field panics in Step (the
// engine refuses a task's before), and Forward (open-loop) has no meaning.
func TestFieldsBounded(t *testing.T) {
	l, params := fieldModel(t, gru.Config{Vocab: 5, Hidden: 4, Levels: 1, Fields: []int{3, 2}}, 1)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	w, err := gru.NewWorkspace(l, 2, 2)
	require.NoError(t, err)
	w.Reset(2)
	w.SetContext(0, 0, []int32{1, 2})
	w.SetContext(1, 0, []int32{3, 2})
	w.Start(params)
	copy(w.Fields(0), []int32{2, 1, 0, 0})
	require.NotPanics(t, func() { w.Step(params, dv, 0, gru.Greedy, gru.Stream{}) })
	copy(w.Fields(1), []int32{0, 2, 0, 0})
	require.PanicsWithValue(t, "gru: field 1 value 2 outside 0..1", func() { w.Step(params, dv, 1, gru.Greedy, gru.Stream{}) })
	require.Panics(t, func() { w.Forward(params, dv, gru.Greedy, gru.Stream{}) })
}

package gru_test

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/kernels"
	"github.com/stretchr/testify/require"
)

// paramSHA is the SHA-256 of params' little-endian bytes.
func paramSHA(p []float32) string {
	b := make([]byte, 4*len(p))
	for i, x := range p {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

// TestLayoutWithoutObservationsUnchanged: O = 0 is the layout, the
// initialisation and the token table of a model before observations: the
// ten tensors in state_dict order, the same initial values (the hash was
// taken before Config.Observations existed), and Table = emb·W_ihᵀ + b_ih
// bit for bit.
func TestLayoutWithoutObservationsUnchanged(t *testing.T) {
	l, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 96, Levels: 3})
	require.NoError(t, err)
	var names []string
	for _, tn := range l.Tensors {
		names = append(names, tn.Name)
	}
	require.Equal(t, []string{"emb.weight", "stage_emb.weight", "rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0",
		"rnn.bias_hh_l0", "pi.weight", "pi.bias", "v.weight", "v.bias"}, names)
	require.Equal(t, 18, l.InputRows())
	require.Zero(t, l.ObsEmb.Size)
	require.Equal(t, int32(13), l.Input(13, 5), "without observations the input is the token")
	params := make([]float32, l.Size)
	l.Init(params, 0)
	require.Equal(t, "a5978ca45e243234001ef554b4bf0e62a78d010a11a569ecebab5ea8a51e3a7e", paramSHA(params))

	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	d := l.Hidden
	want := make([]float32, 18*3*d)
	for v := 0; v < 18; v++ {
		copy(want[v*3*d:], l.BIH.View(params))
	}
	kernels.SgemmNT(18, 3*d, d, 1, l.Emb.View(params), d, l.WIH.View(params), d, 1, want, 3*d)
	require.Equal(t, want, dv.Table)
}

// obsModel is a small model with observations, initialised from seed.
func obsModel(t *testing.T, V, d, O int, seed uint64) (*gru.Layout, []float32) {
	l, err := gru.NewLayout(gru.Config{Vocab: V, Hidden: d, Levels: 2, Observations: O})
	require.NoError(t, err)
	params := make([]float32, l.Size)
	l.Init(params, seed)
	return l, params
}

// TestLayoutWithObservations: obs_emb.weight (O×d) comes last, after
// v.bias; the other tensors keep their offsets and initial values; obs_emb
// is drawn N(0,1) like emb (mean near 0, variance near 1); an input is a·O+o.
func TestLayoutWithObservations(t *testing.T) {
	const V, d, O = 18, 96, 9
	plain, err := gru.NewLayout(gru.Config{Vocab: V, Hidden: d, Levels: 3})
	require.NoError(t, err)
	l, err := gru.NewLayout(gru.Config{Vocab: V, Hidden: d, Levels: 3, Observations: O})
	require.NoError(t, err)
	require.Len(t, l.Tensors, len(plain.Tensors)+1)
	require.Equal(t, plain.Tensors, l.Tensors[:len(plain.Tensors)])
	last := l.Tensors[len(l.Tensors)-1]
	require.Equal(t, gru.Tensor{Name: "obs_emb.weight", Shape: []int{O, d}, Offset: plain.Size, Size: O * d}, last)
	require.Equal(t, last, l.ObsEmb)
	require.Equal(t, plain.Size+O*d, l.Size)
	require.Equal(t, V*O, l.InputRows())
	require.Equal(t, int32(13*O+4), l.Input(13, 4))

	p0, p := make([]float32, plain.Size), make([]float32, l.Size)
	plain.Init(p0, 5)
	l.Init(p, 5)
	require.Equal(t, p0, p[:plain.Size], "the other tensors' initial values do not change")
	var sum, sq float64
	for _, x := range l.ObsEmb.View(p) {
		sum += float64(x)
		sq += float64(x) * float64(x)
	}
	n := float64(O * d)
	mean := sum / n
	require.InDelta(t, 0, mean, 0.1)
	require.InDelta(t, 1, sq/n-mean*mean, 0.15)
}

// TestLayoutObservationsRefused: a negative or absurd observation count is
// an error, not a model.
func TestLayoutObservationsRefused(t *testing.T) {
	_, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 4, Levels: 1, Observations: -1})
	require.EqualError(t, err, fmt.Sprintf("gru: -1 observations (0..%d)", gru.MaxObservations))
	_, err = gru.NewLayout(gru.Config{Vocab: 1 << 10, Hidden: 4, Levels: 1, Observations: 1 << 11})
	require.EqualError(t, err, fmt.Sprintf("gru: 1024 tokens × 2048 observations is 2097152 input rows (at most %d)", gru.MaxInputRows))
}

// TestTableWithObservations: row a·O+o of the table is (emb[a] +
// obs_emb[o])·W_ihᵀ + b_ih, against float64.
func TestTableWithObservations(t *testing.T) {
	const V, d, O = 5, 7, 3
	l, params := obsModel(t, V, d, O, 2)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	require.Len(t, dv.Table, V*O*3*d)
	emb, obs, wih, bih := l.Emb.View(params), l.ObsEmb.View(params), l.WIH.View(params), l.BIH.View(params)
	for a := 0; a < V; a++ {
		for o := 0; o < O; o++ {
			for j := 0; j < 3*d; j++ {
				want := float64(bih[j])
				for i := 0; i < d; i++ {
					want += (float64(emb[a*d+i]) + float64(obs[o*d+i])) * float64(wih[j*d+i])
				}
				require.InDeltaf(t, want, dv.Table[(a*O+o)*3*d+j], 1e-5*(1+math.Abs(want)), "row %d·%d+%d col %d", a, O, o, j)
			}
		}
	}
}

// TestTableGradientWithObservations: Apply of a random dTable against its
// float64 definition: dW_ih = dTableᵀ·X, db_ih = column sums, dX =
// dTable·W_ih summed over o into demb[a] and over a into dobs_emb[o]; the
// tensors the table is not made of get nothing.
func TestTableGradientWithObservations(t *testing.T) {
	const V, d, O = 5, 7, 3
	l, params := obsModel(t, V, d, O, 4)
	g := gru.NewTableGradient(l)
	dT := g.Buffer()
	require.Len(t, dT, V*O*3*d)
	for i := range dT {
		dT[i] = float32(math.Sin(float64(i)*0.37)) * 0.5
	}
	grad := make([]float32, l.Size)
	g.Apply(params, grad)

	emb, obs, wih := l.Emb.View(params), l.ObsEmb.View(params), l.WIH.View(params)
	x := func(r, i int) float64 { return float64(emb[(r/O)*d+i]) + float64(obs[(r%O)*d+i]) }
	want := make([]float64, l.Size)
	for r := 0; r < V*O; r++ {
		for j := 0; j < 3*d; j++ {
			g := float64(dT[r*3*d+j])
			want[l.BIH.Offset+j] += g
			for i := 0; i < d; i++ {
				want[l.WIH.Offset+j*d+i] += g * x(r, i)
				dx := g * float64(wih[j*d+i])
				want[l.Emb.Offset+(r/O)*d+i] += dx
				want[l.ObsEmb.Offset+(r%O)*d+i] += dx
			}
		}
	}
	for _, tn := range l.Tensors {
		got, w := tn.View(grad), want[tn.Offset:tn.Offset+tn.Size]
		for i := range w {
			require.InDeltaf(t, w[i], got[i], 1e-5*(1+math.Abs(w[i])), "%s[%d]", tn.Name, i)
		}
	}
	require.NotZero(t, l.ObsEmb.View(grad)[0])
}

// observedRollout plays a teacher-forced rollout whose inputs carry the
// observations obs(b, t) (t = 0: the first, after the context end).
func observedRollout(l *gru.Layout, w *gru.Workspace, params []float32, dv *gru.Derived, obs func(b, t int) int32) {
	w.Start(params)
	for s := 0; s < w.T; s++ {
		in := w.Inputs(s)
		for b := range in {
			prev := l.Start
			if s > 0 {
				prev = w.Action(b, s-1)
			}
			in[b] = l.Input(prev, obs(b, s))
		}
		w.Step(params, dv, s, gru.Teacher, gru.Stream{})
	}
}

// TestObservationGradientFiniteDifferences: through a whole rollout whose
// inputs carry observations, Backward and TableGradient.Apply give d loss /
// d obs_emb and d loss / d emb as central differences of the loss do.
func TestObservationGradientFiniteDifferences(t *testing.T) {
	const V, d, O, T, n = 5, 4, 3, 3, 4
	l, params := obsModel(t, V, d, O, 9)
	require.NoError(t, l.SetStart(2))
	w, err := gru.NewWorkspace(l, n, T)
	require.NoError(t, err)
	w.Reset(n)
	obs := func(b, s int) int32 { return int32((b + 2*s) % O) }
	for b := 0; b < n; b++ {
		w.SetContext(b, b%2, []int32{int32(b % V), 2})
		for s := 0; s < T; s++ {
			w.SetAction(b, s, int32((b+s)%V))
		}
	}
	for i := range w.DLogp {
		w.DLogp[i], w.DEnt[i], w.DValue[i] = float32(i%3)-1, 0.25, float32(i%2)+0.5
	}
	loss := func() float64 {
		dv := gru.NewDerived(l)
		dv.Compute(l, params)
		observedRollout(l, w, params, dv, obs)
		sum := 0.0
		for b := 0; b < n; b++ {
			for s := 0; s < T; s++ {
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
	for _, tn := range []gru.Tensor{l.ObsEmb, l.Emb} {
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
			require.InDeltaf(t, fd, float64(grad[tn.Offset+i]), 2e-3+2e-2*math.Abs(fd), "%s[%d]", tn.Name, i)
		}
	}
	var norm float64
	for _, g := range l.ObsEmb.View(grad) {
		norm += float64(g) * float64(g)
	}
	require.Greater(t, norm, 1e-6, "obs_emb gets a gradient")
}

// TestObservationInputsBounded: with observations an input is one of the
// V·O rows: V·O−1 runs, V·O is a programmer's error and panics, and Forward
// (open-loop) has no meaning and panics too.
func TestObservationInputsBounded(t *testing.T) {
	const V, d, O = 5, 4, 3
	l, params := obsModel(t, V, d, O, 1)
	require.NoError(t, l.SetStart(2))
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	w, err := gru.NewWorkspace(l, 2, 2)
	require.NoError(t, err)
	w.Reset(2)
	w.SetContext(0, 0, []int32{1, 2})
	w.SetContext(1, 1, []int32{3, 2})
	w.Start(params)
	require.Equal(t, []int32{l.Input(l.Start, 0), l.Input(l.Start, 0)}, w.Inputs(0))
	w.Inputs(0)[1] = V*O - 1
	require.NotPanics(t, func() { w.Step(params, dv, 0, gru.Greedy, gru.Stream{}) })
	w.Inputs(1)[0] = V * O
	require.PanicsWithValue(t, "gru: input 15 outside the 15 inputs (Layout.InputRows)", func() { w.Step(params, dv, 1, gru.Greedy, gru.Stream{}) })
	require.Panics(t, func() { w.Forward(params, dv, gru.Greedy, gru.Stream{}) })
}

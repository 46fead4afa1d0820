package gru_test

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/stretchr/testify/require"
)

// readRollout runs a teacher-forced rollout of a reading layout (with O
// observations) on contexts ctx, returning every row's log-probabilities,
// entropies and values, and the gradient of a fixed loss.
func readRollout(t *testing.T, O int, ctx [][]int32) (out [][]float32, grad []float32) {
	const T = 4
	shown := 0 // the longest context, the end not counted
	for _, c := range ctx {
		shown = max(shown, len(c)-1)
	}
	l, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 16, Levels: 3, Observations: O, Read: true, Shown: shown})
	require.NoError(t, err)
	params := make([]float32, l.Size)
	l.Init(params, 5)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	n := len(ctx)
	w, err := gru.NewWorkspace(l, n, T)
	require.NoError(t, err)
	w.Reset(n)
	for b, c := range ctx {
		w.SetContext(b, len(c)%3, c)
		for s := 0; s < T; s++ {
			w.SetAction(b, s, int32(11+(len(c)+s)%7))
		}
	}
	w.Start(params)
	for s := 0; s < T; s++ {
		for b := range w.Inputs(s) {
			prev := l.Start
			if s > 0 {
				prev = w.Action(b, s-1)
			}
			w.Inputs(s)[b] = l.Input(prev, int32((len(ctx[b])+s)%max(O, 1)))
		}
		w.Step(params, dv, s, gru.Teacher, gru.Stream{})
	}
	out = make([][]float32, n)
	for b := range ctx {
		for s := 0; s < T; s++ {
			out[b] = append(out[b], w.Logp(b, s), w.Entropy(b, s), w.Value(b, s))
			w.DLogp[s*n+b], w.DEnt[s*n+b], w.DValue[s*n+b] = 0.3, -0.01, 0.5
		}
	}
	grad = make([]float32, l.Size)
	table := gru.NewTableGradient(l)
	w.Backward(params, dv, grad, table.Buffer())
	table.Apply(params, grad)
	return out, grad
}

// TestReadRowsAreIndependentOfTheirChunk: a row's outputs are bit for bit
// the same whatever the context lengths of the other rows of its chunk (the
// reading is aligned at the end: a shorter row waits with h0 copied), so
// contexts of any lengths share a chunk; and the tokens' order matters.
func TestReadRowsAreIndependentOfTheirChunk(t *testing.T) {
	row := []int32{3, 1, 4, 10}
	for _, O := range []int{0, 3} {
		alone, _ := readRollout(t, O, [][]int32{row, row, row})
		long, _ := readRollout(t, O, [][]int32{{9, 9, 9, 9, 9, 9, 9, 9, 10}, row, {10}})
		short, _ := readRollout(t, O, [][]int32{{10}, row, {2, 10}})
		require.Equal(t, alone[1], long[1], "O=%d: a longer context beside the row changed it", O)
		require.Equal(t, alone[1], short[1], "O=%d", O)
		other, _ := readRollout(t, O, [][]int32{{3, 4, 1, 10}})
		require.NotEqual(t, alone[0], other[0], "O=%d: reading ignores the tokens' order", O)
	}
}

// TestReadNeedsNoContext: a context of the end token alone reads nothing
// (h before the first action is tanh(stage_emb[level])) and gives emb no
// gradient from the reading.
func TestReadNeedsNoContext(t *testing.T) {
	out, grad := readRollout(t, 0, [][]int32{{10}, {10}})
	require.Equal(t, out[0], out[1])
	l, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 16, Levels: 3, Read: true})
	require.NoError(t, err)
	demb := l.Emb.View(grad)
	for _, tok := range []int{0, 1, 2, 9} { // digits: never an input here
		for _, g := range demb[tok*16 : (tok+1)*16] {
			require.Zero(t, g)
		}
	}
}

// TestReadGradientIsTheRowsSum: the gradient of a chunk whose rows read
// contexts of different lengths (so that some reading steps run on the
// reading rows only, their gate gradients kept packed) is the sum of each
// row's gradient in a chunk of its own, where every row reads at every step
// (the same within float32 rounding: the sums run in another order). A gate
// gradient stored or read at the wrong row fails it.
func TestReadGradientIsTheRowsSum(t *testing.T) {
	ctx := [][]int32{{9, 2, 9, 9, 7, 9, 1, 10}, {3, 1, 4, 10}, {10}, {2, 10}, {5, 8, 6, 10}, {0, 10}}
	for _, O := range []int{0, 3} {
		_, chunk := readRollout(t, O, ctx)
		sum := make([]float64, len(chunk))
		for _, row := range ctx {
			_, g := readRollout(t, O, [][]int32{row})
			for i, v := range g {
				sum[i] += float64(v)
			}
		}
		scale := 0.0
		for _, v := range sum {
			scale = max(scale, math.Abs(v))
		}
		require.Greater(t, scale, 0.0)
		for i, v := range chunk {
			require.InDeltaf(t, sum[i], float64(v), 1e-6*scale, "O=%d: parameter %d", O, i)
		}
	}
}

// TestReadingStepsAreTheLayouts: a reading workspace holds the reading
// steps of its layout's longest context (Config.Shown), not of the longest
// any task may show (MaxContext), and takes no longer context; a bag's
// ignores Shown. NewLayout refuses a Shown no workspace could read.
func TestReadingStepsAreTheLayouts(t *testing.T) {
	layout := func(read bool, shown int) *gru.Layout {
		l, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 16, Levels: 3, Read: read, Shown: shown})
		require.NoError(t, err)
		return l
	}
	const C, T = 5, 4
	short, long := layout(true, 3), layout(true, gru.MaxContext-1)
	require.Less(t, gru.WorkspaceBytes(short, C, T), gru.WorkspaceBytes(long, C, T))
	require.Equal(t, gru.WorkspaceBytes(layout(false, 3), C, T), gru.WorkspaceBytes(layout(false, gru.MaxContext-1), C, T))
	w, err := gru.NewWorkspace(short, C, T)
	require.NoError(t, err)
	w.Reset(C)
	w.SetContext(0, 0, []int32{1, 2, 3, 10})
	require.PanicsWithValue(t, "gru: context of 5 tokens (1..4)", func() { w.SetContext(1, 0, []int32{1, 2, 3, 4, 10}) })
	for _, shown := range []int{-1, gru.MaxContext} {
		_, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 16, Levels: 3, Read: true, Shown: shown})
		require.Error(t, err, "Shown %d", shown)
	}
}

package gru_test

import (
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/stretchr/testify/require"
)

// backwardCase is a chunk rolled out greedily with a loss on every step,
// ready for Backward.
type backwardCase struct {
	l      *gru.Layout
	params []float32
	dv     *gru.Derived
	w      *gru.Workspace
}

func newBackwardCase(t *testing.T, read bool) backwardCase {
	const V, d, n, T = 18, 16, 5, 6
	l, err := gru.NewLayout(gru.Config{Vocab: V, Hidden: d, Levels: 3})
	require.NoError(t, err)
	l.Read, l.Shown = read, 2 // the contexts below: two tokens and the end
	params := make([]float32, l.Size)
	l.Init(params, 5)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	w, err := gru.NewWorkspace(l, n, T)
	require.NoError(t, err)
	w.Reset(n)
	for b := 0; b < n; b++ {
		w.SetContext(b, b%3, []int32{int32(b), 12, 10})
	}
	w.Start(params)
	for s := 0; s < T; s++ {
		w.Step(params, dv, s, gru.Greedy, gru.Stream{})
		if s+1 < T {
			copy(w.Inputs(s+1), w.StepActions(s))
		}
	}
	for i := range w.DLogp[:n*T] {
		w.DLogp[i], w.DEnt[i], w.DValue[i] = 0.1, 0.01, -0.2
	}
	return backwardCase{l, params, dv, w}
}

// backward runs BackwardUntil with a stop that the step hook closes after
// step closeAfter (-1: never; T: before the first step) and returns its
// answer, the steps it ran after the close and the gradient.
func (c backwardCase) backward(t *testing.T, closeAfter int) (bool, int, []float32) {
	stop := make(chan struct{})
	if closeAfter == c.w.T {
		close(stop)
	}
	after, shut := 0, closeAfter == c.w.T
	gru.SetBackStepDone(func(s int) {
		if shut {
			after++
		}
		if s == closeAfter {
			close(stop)
			shut = true
		}
	})
	defer gru.SetBackStepDone(nil)
	grad := make([]float32, c.l.Size)
	ok := c.w.BackwardUntil(c.params, c.dv, grad, gru.NewTableGradient(c.l).Buffer(), stop)
	return ok, after, grad
}

// TestBackwardUntilStopsBetweenSteps: BackwardUntil looks at its stop
// before every step and before the weight GEMMs: closed after any step, no
// further step runs and it reports false; closed after the last step, the
// recurrent weights' gradient is never added; open, it is Backward bit for
// bit.
func TestBackwardUntilStopsBetweenSteps(t *testing.T) {
	for _, read := range []bool{false, true} {
		c := newBackwardCase(t, read)
		T := c.w.T
		want := make([]float32, c.l.Size)
		c.w.Backward(c.params, c.dv, want, gru.NewTableGradient(c.l).Buffer())
		require.NotZero(t, maxAbs(c.l.WHH.View(want)))

		ok, _, grad := c.backward(t, -1)
		require.True(t, ok)
		require.Equal(t, want, grad, "read=%v: an open stop changes nothing", read)

		for _, at := range []int{T, T - 1, T / 2, 0} {
			ok, after, grad := c.backward(t, at)
			require.False(t, ok, "read=%v: closed after step %d", read, at)
			require.Zero(t, after, "read=%v: steps run after the close at step %d", read, at)
			require.Zero(t, maxAbs(c.l.WHH.View(grad)), "read=%v: the weight GEMMs ran after the close at step %d", read, at)
		}
	}
}

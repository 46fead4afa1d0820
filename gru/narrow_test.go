package gru_test

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/stretchr/testify/require"
)

// TestNarrowModelsBackward runs backward on models narrower than the heads
// (3d < V+1: -hidden 1..6 once panicked there) and checks the heads' bias
// gradients against central differences of the loss they define.
func TestNarrowModelsBackward(t *testing.T) {
	const V, S, T, n = 18, 3, 4, 3
	for _, d := range []int{1, 2, 3, 5, 6, 7, 8} {
		l, err := gru.NewLayout(gru.Config{Vocab: V, Hidden: d, Levels: S})
		require.NoError(t, err)
		params := make([]float32, l.Size)
		l.Init(params, 7)
		w, err := gru.NewWorkspace(l, n, T)
		require.NoError(t, err)
		w.Reset(n)
		for b := 0; b < n; b++ {
			w.SetContext(b, b%S, []int32{int32(b + 1), int32(2*b + 3), 10})
			for s := 0; s < T; s++ {
				w.SetAction(b, s, int32(11+(b+s)%7))
			}
		}
		for i := range w.DLogp {
			w.DLogp[i], w.DEnt[i], w.DValue[i] = float32(i%3)-1, 0.25, float32(i%2)+0.5
		}
		// The loss whose gradient Backward computes, in float64.
		loss := func() float64 {
			dv := gru.NewDerived(l)
			dv.Compute(l, params)
			w.Forward(params, dv, gru.Teacher, gru.Stream{})
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
		require.NotPanicsf(t, func() { w.Backward(params, dv, grad, table.Buffer()) }, "hidden %d", d)
		table.Apply(params, grad)
		for _, tn := range []gru.Tensor{l.PiB, l.VB} {
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
				got := float64(grad[tn.Offset+i])
				require.InDeltaf(t, fd, got, 2e-3+2e-2*math.Abs(fd), "hidden %d %s[%d]", d, tn.Name, i)
			}
		}
	}
}

// TestWorkspaceBytes: the estimate is what NewWorkspace allocates.
func TestWorkspaceBytes(t *testing.T) {
	for _, read := range []bool{false, true} {
		for _, c := range []struct{ d, capacity, steps int }{{1, 1, 1}, {3, 7, 2}, {96, 96, 6}, {37, 5, 13}} {
			l, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: c.d, Levels: 3, Read: read})
			require.NoError(t, err)
			w, err := gru.NewWorkspace(l, c.capacity, c.steps)
			require.NoError(t, err)
			require.Equalf(t, float64(gru.AllocatedBytes(w)), gru.WorkspaceBytes(l, c.capacity, c.steps), "%+v read %v", c, read)
		}
	}
}

package gru_test

import (
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

func stepModel(t *testing.T, n, T int) (*gru.Layout, []float32, *gru.Derived, *gru.Workspace) {
	l, err := gru.NewLayout(gru.Config{Vocab: 18, Hidden: 16, Levels: 3})
	require.NoError(t, err)
	params := make([]float32, l.Size)
	l.Init(params, 3)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	w, err := gru.NewWorkspace(l, n, T)
	require.NoError(t, err)
	w.Reset(n)
	for b := 0; b < n; b++ {
		w.SetContext(b, b%3, []int32{int32(b % 10), int32((3 * b) % 10), 12, 10}) // a non-digit context token too
	}
	return l, params, dv, w
}

// TestStepInputsAreApartFromActions: a stepped rollout whose inputs are not
// its actions reads its inputs: its log-probabilities are those of a Forward
// whose actions are those inputs shifted, bit for bit, and differ from a
// Forward fed back its own actions.
func TestStepInputsAreApartFromActions(t *testing.T) {
	const n, T = 5, 6
	_, params, dv, w := stepModel(t, n, T)
	input := func(b, t int) int32 { return int32(11 + (3*b+t)%7) }
	w.Start(params)
	for s := 0; s < T; s++ {
		if s > 0 {
			for b := range w.Inputs(s) {
				w.Inputs(s)[b] = input(b, s)
			}
		}
		w.Step(params, dv, s, gru.Greedy, gru.Stream{})
	}
	stepped := make([]float32, 0, n*T*18)
	greedy := append([]int32(nil), w.Actions()...)
	for s := 0; s < T; s++ {
		for b := 0; b < n; b++ {
			for a := int32(0); a < 18; a++ {
				stepped = append(stepped, w.LogpOf(b, s, a))
			}
		}
	}
	for b := 0; b < n; b++ {
		for s := 0; s+1 < T; s++ {
			w.SetAction(b, s, input(b, s+1))
		}
		w.SetAction(b, T-1, 0)
	}
	w.Forward(params, dv, gru.Teacher, gru.Stream{})
	var forced []float32
	for s := 0; s < T; s++ {
		for b := 0; b < n; b++ {
			for a := int32(0); a < 18; a++ {
				forced = append(forced, w.LogpOf(b, s, a))
			}
		}
	}
	require.Equal(t, stepped, forced)
	w.Forward(params, dv, gru.Greedy, gru.Stream{})
	require.NotEqual(t, greedy, w.Actions(), "the greedy programs fed back differ from the ones fed fixed inputs")
}

// TestStepIsForward: Start and T Steps fed back their actions is Forward.
func TestStepIsForward(t *testing.T) {
	const n, T = 7, 6
	_, params, dv, w := stepModel(t, n, T)
	s := gru.Stream{Key: rng.NewKey(4), Round: 2, FirstEpisode: 9}
	w.Forward(params, dv, gru.Sample, s)
	want := append([]int32(nil), w.Actions()...)
	var wantV []float32
	for b := 0; b < n; b++ {
		for t := 0; t < T; t++ {
			wantV = append(wantV, w.Value(b, t), w.Logp(b, t), w.Entropy(b, t))
		}
	}
	w.Start(params)
	for t := 0; t < T; t++ {
		w.Step(params, dv, t, gru.Sample, s)
		if t+1 < T {
			copy(w.Inputs(t+1), w.StepActions(t))
		}
	}
	require.Equal(t, want, w.Actions())
	var gotV []float32
	for b := 0; b < n; b++ {
		for t := 0; t < T; t++ {
			gotV = append(gotV, w.Value(b, t), w.Logp(b, t), w.Entropy(b, t))
		}
	}
	require.Equal(t, wantV, gotV)
}

// TestStepRefusesOutOfOrder: steps run in order after Start, inputs are in
// the vocabulary, and Backward needs the whole rollout.
func TestStepRefusesOutOfOrder(t *testing.T) {
	const n, T = 3, 4
	l, params, dv, w := stepModel(t, n, T)
	require.Panics(t, func() { w.Step(params, dv, 0, gru.Greedy, gru.Stream{}) }, "before Start")
	w.Start(params)
	require.Panics(t, func() { w.Step(params, dv, 1, gru.Greedy, gru.Stream{}) }, "skips step 0")
	w.Step(params, dv, 0, gru.Greedy, gru.Stream{})
	grad, table := make([]float32, l.Size), gru.NewTableGradient(l)
	require.PanicsWithValue(t, "gru: Backward after 1 of 4 steps", func() { w.Backward(params, dv, grad, table.Buffer()) })
	w.Inputs(1)[2] = 18
	require.PanicsWithValue(t, "gru: input 18 outside the 18 inputs (Layout.InputRows)", func() { w.Step(params, dv, 1, gru.Greedy, gru.Stream{}) })
}

func TestStepAllocatesNothing(t *testing.T) {
	const n, T = 8, 6
	l, params, dv, w := stepModel(t, n, T)
	grad, table := make([]float32, l.Size), gru.NewTableGradient(l)
	s := gru.Stream{Key: rng.NewKey(1)}
	require.Zero(t, testing.AllocsPerRun(20, func() {
		w.Start(params)
		for t := 0; t < T; t++ {
			w.Step(params, dv, t, gru.Sample, s)
			if t+1 < T {
				copy(w.Inputs(t+1), w.StepActions(t))
			}
		}
		w.Backward(params, dv, grad, table.Buffer())
	}))
}

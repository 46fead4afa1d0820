package gru_test

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// stopCase is one chunk's rollout: its layout, rows, steps, how actions are
// picked, and the step each row's episode ends at.
type stopCase struct {
	read bool
	obs  int // observation tokens (0: none)
	n, T int
	mode gru.Mode
	ends []int
}

// stopRun is what a rollout leaves that a loss or an engine reads: the
// actions, log-probabilities, values and entropies of every row's steps up
// to its end, the live-step count, and the gradients of a loss that weights
// only those steps.
type stopRun struct {
	actions      []int32
	outs         []float32
	live         int
	grad, dTable []float32
}

func (c stopCase) run(t *testing.T, retire bool) stopRun {
	const V, d = 18, 16
	l, err := gru.NewLayout(gru.Config{Vocab: V, Hidden: d, Levels: 3, Observations: c.obs})
	require.NoError(t, err)
	l.Read, l.Shown = c.read, 3 // the contexts below: up to three tokens and the end
	params := make([]float32, l.Size)
	l.Init(params, 5)
	dv := gru.NewDerived(l)
	dv.Compute(l, params)
	w, err := gru.NewWorkspace(l, c.n+3, c.T) // a workspace larger than the chunk
	require.NoError(t, err)
	w.Reset(c.n)
	for b := 0; b < c.n; b++ {
		ctx := []int32{int32(b % 10), int32((3 * b) % 10), 12, 10}
		w.SetContext(b, b%3, ctx[b%3:]) // contexts of 2, 3 and 4 tokens
		for s := 0; s < c.T; s++ {
			w.SetAction(b, s, int32((7*b+3*s)%V)) // Teacher's actions
		}
	}
	key := rng.NewKey(9)
	stream := gru.Stream{Key: key, Round: 4, FirstEpisode: 11}
	done := make([]bool, c.n)
	roll := func(retire bool) {
		w.Start(params)
		for s := 0; s < c.T; s++ {
			w.Step(params, dv, s, c.mode, stream)
			for b := range done {
				done[b] = s >= c.ends[b]
			}
			if retire {
				w.Retire(s, done)
			}
			if s+1 < c.T {
				for b, a := range w.StepActions(s) {
					w.Inputs(s + 1)[b] = l.Input(a, int32((int(a)+s)%max(c.obs, 1)))
				}
			}
		}
	}
	if retire {
		// First a whole rollout and its backward in the same workspace, so
		// that what a retired row leaves unwritten holds another chunk's values.
		roll(false)
		for i := range w.DLogp[:c.n*c.T] {
			w.DLogp[i], w.DEnt[i], w.DValue[i] = 0.1, 0.1, 0.1
		}
		w.Backward(params, dv, make([]float32, l.Size), gru.NewTableGradient(l).Buffer())
	}
	roll(retire)
	var r stopRun
	for b := 0; b < c.n; b++ {
		for s := 0; s <= c.ends[b]; s++ {
			r.actions = append(r.actions, w.Action(b, s))
			r.outs = append(r.outs, w.Logp(b, s), w.Value(b, s), w.Entropy(b, s), w.LogpOf(b, s, 3))
		}
		for s := c.ends[b] + 1; s < c.T; s++ {
			i := s*c.n + b
			w.DLogp[i], w.DEnt[i], w.DValue[i] = 0, 0, 0
			if retire {
				require.False(t, w.Live(b, s))
				require.Zero(t, w.Logp(b, s), "a retired step has no log-probability")
			}
		}
		for s := 0; s <= c.ends[b]; s++ {
			i := s*c.n + b
			u := key.Uniform(uint32(b), uint32(s), 0, rng.PurposeTask)
			w.DLogp[i], w.DEnt[i], w.DValue[i] = u-0.5, 0.01*u, 0.3*(0.5-u)
			require.True(t, w.Live(b, s))
		}
	}
	r.live = w.LiveSteps()
	r.grad = make([]float32, l.Size)
	table := gru.NewTableGradient(l)
	w.Backward(params, dv, r.grad, table.Buffer())
	r.dTable = append([]float32(nil), table.Buffer()...)
	return r
}

// TestRetireChangesNothing: a rollout that retires each row at its end
// gives every step up to the ends and the gradients of a loss masked after
// them exactly as the rollout of all T steps (float ==: a retired row's zero
// terms cannot change a sum, though a sum of nothing but zeros may differ in
// its sign), on chunks of 1 to 97 rows, with sampling, greedy and teacher
// actions, a reading layout and observations; and it computes only the
// steps up to the ends.
func TestRetireChangesNothing(t *testing.T) {
	src := rng.NewKey(3)
	for _, n := range []int{1, 2, 5, 17, 97} {
		for _, variant := range []struct {
			read bool
			obs  int
		}{{false, 0}, {true, 0}, {false, 3}, {true, 3}} {
			for _, mode := range []gru.Mode{gru.Sample, gru.Greedy, gru.Teacher} {
				for pattern := 0; pattern < 4; pattern++ {
					const T = 9
					ends := make([]int, n)
					want := 0
					for b := range ends {
						switch pattern {
						case 0: // anywhere
							ends[b] = int(src.Uniform(uint32(n), uint32(b), uint32(mode), rng.PurposeTask) * T)
						case 1: // everyone at the first step
							ends[b] = 0
						case 2: // nobody before the last
							ends[b] = T - 1
						case 3: // every other row early
							ends[b] = T - 1 - (T-2)*(b%2)
						}
						want += ends[b] + 1
					}
					c := stopCase{read: variant.read, obs: variant.obs, n: n, T: T, mode: mode, ends: ends}
					name := fmt.Sprintf("n=%d/read=%v/obs=%d/mode=%d/pattern=%d", n, variant.read, variant.obs, mode, pattern)
					full, stopped := c.run(t, false), c.run(t, true)
					require.Equal(t, n*T, full.live, name)
					require.Equal(t, want, stopped.live, name)
					require.Equal(t, full.actions, stopped.actions, name)
					require.Equal(t, full.outs, stopped.outs, name)
					require.Equal(t, full.grad, stopped.grad, name)
					require.Equal(t, full.dTable, stopped.dTable, name)
					require.NotZero(t, maxAbs(stopped.grad), name)
				}
			}
		}
	}
}

func maxAbs(v []float32) float32 {
	m := float32(0)
	for _, x := range v {
		m = max(m, x, -x)
	}
	return m
}

// TestRetireRefusesOutOfOrder: Retire follows the step it names.
func TestRetireRefusesOutOfOrder(t *testing.T) {
	const n, T = 3, 4
	_, params, dv, w := stepModel(t, n, T)
	done := make([]bool, n)
	w.Start(params)
	require.Panics(t, func() { w.Retire(0, done) }, "before Step(0)")
	w.Step(params, dv, 0, gru.Greedy, gru.Stream{})
	require.Panics(t, func() { w.Retire(1, done) }, "a step not run yet")
	require.Panics(t, func() { w.Retire(0, done[:2]) }, "too few flags")
	w.Retire(0, done)
}

// TestRetireAllocatesNothing: a rollout that retires rows and its backward
// allocate nothing.
func TestRetireAllocatesNothing(t *testing.T) {
	const n, T = 8, 6
	l, params, dv, w := stepModel(t, n, T)
	grad, table := make([]float32, l.Size), gru.NewTableGradient(l)
	s := gru.Stream{Key: rng.NewKey(1)}
	done := make([]bool, n)
	require.Zero(t, testing.AllocsPerRun(20, func() {
		w.Start(params)
		for t := 0; t < T; t++ {
			w.Step(params, dv, t, gru.Sample, s)
			for b := range done {
				done[b] = b < t
			}
			w.Retire(t, done)
			if t+1 < T {
				copy(w.Inputs(t+1), w.StepActions(t))
			}
		}
		w.Backward(params, dv, grad, table.Buffer())
	}))
}

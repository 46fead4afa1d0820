package gru_test

import (
	"math"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// maskLegal is the test's mask: token a is legal for row b at step t when
// (a+b+2t) mod 5 == 0, or a is the row's own legal token 17 − (b+t) mod 4
// (so every row has a few, and token 0..2 are often illegal).
func maskLegal(b, t, a int) bool { return (a+b+2*t)%5 == 0 || a == 17-(b+t)%4 }

// maskedRollout rolls the model out in mode with the mask written before
// every step (nil mask: a workspace that never masks), feeding back the
// actions.
func maskedRollout(t *testing.T, mode gru.Mode, mask func(b, t, a int) bool) (*gru.Layout, []float32, *gru.Derived, *gru.Workspace) {
	const n, T, V = 6, 5, 18
	l, params, dv, w := stepModel(t, n, T)
	if mask != nil {
		w.MaskActions()
	}
	w.Start(params)
	s := gru.Stream{Key: rng.NewKey(7), Round: 3}
	for step := 0; step < T; step++ {
		if mask != nil {
			legal := w.Legal()
			require.Len(t, legal, n*V)
			for b := 0; b < n; b++ {
				for a := 0; a < V; a++ {
					legal[b*V+a] = mask(b, step, a)
				}
			}
		}
		w.Step(params, dv, step, mode, s)
		if step+1 < T {
			copy(w.Inputs(step+1), w.StepActions(step))
		}
	}
	return l, params, dv, w
}

// A masked token is never sampled nor chosen greedily, the log
// probabilities and entropy are the softmax's over the legal tokens alone,
// and the backward gives every masked logit a gradient of exactly 0.
func TestMaskedTokensAreNeverPlayedAndGetNoGradient(t *testing.T) {
	const n, T, V = 6, 5, 18
	for _, mode := range []gru.Mode{gru.Sample, gru.Greedy} {
		l, params, dv, w := maskedRollout(t, mode, maskLegal)
		_, _, _, free := maskedRollout(t, gru.Teacher, nil)
		// The unmasked reference, fed the masked rollout's actions: its
		// logits are the masked rollout's before the mask.
		for b := 0; b < n; b++ {
			for s := 0; s < T; s++ {
				free.SetAction(b, s, w.Action(b, s))
			}
		}
		free.Forward(params, dv, gru.Teacher, gru.Stream{})
		illegalChosen := 0
		for b := 0; b < n; b++ {
			for s := 0; s < T; s++ {
				a := int(w.Action(b, s))
				require.Truef(t, maskLegal(b, s, a), "mode %d: row %d step %d played the masked token %d", mode, b, s, a)
				// The legal tokens' softmax, from the unmasked log probabilities.
				var z float64
				for j := 0; j < V; j++ {
					if maskLegal(b, s, j) {
						z += math.Exp(float64(free.LogpOf(b, s, int32(j))))
					}
				}
				var ent float64
				best := -1
				for j := 0; j < V; j++ {
					got := float64(w.LogpOf(b, s, int32(j)))
					if !maskLegal(b, s, j) {
						require.Zerof(t, math.Exp(got), "row %d step %d: masked token %d has probability %g", b, s, j, math.Exp(got))
						continue
					}
					want := float64(free.LogpOf(b, s, int32(j))) - math.Log(z)
					require.InDeltaf(t, want, got, 1e-4, "row %d step %d token %d: log p over the legal tokens", b, s, j)
					p := math.Exp(want)
					ent -= p * math.Log(p+kernels.EntropyEps)
					if best < 0 || free.LogpOf(b, s, int32(j)) > free.LogpOf(b, s, int32(best)) {
						best = j
					}
				}
				require.InDeltaf(t, ent, float64(w.Entropy(b, s)), 1e-5, "row %d step %d: the entropy over the legal tokens", b, s)
				if mode == gru.Greedy {
					require.Equalf(t, best, a, "row %d step %d: greedy is the best legal token", b, s)
				}
				if free.GreedyAction(b, s) != int32(a) {
					illegalChosen++
				}
			}
		}
		if mode == gru.Greedy {
			require.Positive(t, illegalChosen, "the mask never changed a greedy choice: the test shows nothing")
		}
		for i := range w.DLogp {
			w.DLogp[i], w.DEnt[i], w.DValue[i] = 0.7, -0.3, 0.2
		}
		grad := make([]float32, l.Size)
		w.Backward(params, dv, grad, make([]float32, len(dv.Table)))
		for b := 0; b < n; b++ {
			for s := 0; s < T; s++ {
				d := gru.DLogits(w, b, s)
				nonzero := 0
				for a := 0; a < V; a++ {
					if !maskLegal(b, s, a) {
						require.Zerof(t, d[a], "row %d step %d: masked token %d's logit got gradient %g", b, s, a, d[a])
					} else if d[a] != 0 {
						nonzero++
					}
				}
				require.Positivef(t, nonzero, "row %d step %d: no legal logit got a gradient", b, s)
			}
		}
	}
}

// A workspace with a mask that allows everything computes what one without
// a mask does, bit for bit.
func TestAllLegalMaskChangesNothing(t *testing.T) {
	for _, mode := range []gru.Mode{gru.Sample, gru.Greedy} {
		_, _, _, masked := maskedRollout(t, mode, func(int, int, int) bool { return true })
		_, _, _, free := maskedRollout(t, mode, nil)
		require.Equal(t, free.Actions(), masked.Actions())
		for b := 0; b < 6; b++ {
			for s := 0; s < 5; s++ {
				require.Equal(t, math.Float32bits(free.Entropy(b, s)), math.Float32bits(masked.Entropy(b, s)))
				for a := int32(0); a < 18; a++ {
					require.Equal(t, math.Float32bits(free.LogpOf(b, s, a)), math.Float32bits(masked.LogpOf(b, s, a)))
				}
			}
		}
	}
}

package gru

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// temperedProbs is softmax(z/T) of each row's logits, a masked logit's
// probability exactly 0 at any temperature.
func TestTemperedProbs(t *testing.T) {
	l, err := NewLayout(Config{Vocab: 4, Hidden: 2, Levels: 1})
	require.NoError(t, err)
	w, err := NewWorkspace(l, 2, 1)
	require.NoError(t, err)
	heads := []float32{1, 2, 3, MaskedLogit, 9, -1, 0, 1, 0.5, 9} // two rows of V+1 (the value last)
	for _, T := range []float32{0.5, 2, 1e-6, 1e6} {
		w.temperedProbs(heads, 2, T)
		for r := 0; r < 2; r++ {
			z := heads[r*5 : r*5+4]
			mx := math.Inf(-1)
			for _, v := range z {
				mx = max(mx, float64(v)/float64(T))
			}
			sum := 0.0
			for _, v := range z {
				sum += math.Exp(float64(v)/float64(T) - mx)
			}
			for j, v := range z {
				want := math.Exp(float64(v)/float64(T)-mx) / sum
				require.InDeltaf(t, want, float64(w.probs[r*4+j]), 1e-6, "T=%v row %d token %d", T, r, j)
			}
		}
		require.Zero(t, w.probs[3], "T=%v: the masked token", T)
	}
	w.temperedProbs(heads, 2, 1e6)
	require.InDelta(t, 1.0/3, float64(w.probs[0]), 1e-5, "a high temperature is uniform over the legal tokens")
	w.temperedProbs(heads, 2, 1e-6)
	require.Equal(t, float32(1), w.probs[2], "a low temperature is the argmax")
}

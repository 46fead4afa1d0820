package enginekit

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGAETerminatedOrTruncated: with γ = λ = 1 an advantage is what is
// still to come less the value: an episode of 3 steps paid 1 at step 1,
// where it ends, with values 0.25 and 0.5 (9 past the end, never read).
// Terminated, the step after the end is worth 0: A = 1 − 0.25, 1 − 0.5;
// truncated, it is worth the last value 0.5, added to both.
func TestGAETerminatedOrTruncated(t *testing.T) {
	reward, value := []float64{0, 1, 0}, []float32{0.25, 0.5, 9}
	for _, c := range []struct {
		truncated bool
		adv, ret  []float32
	}{
		{false, []float32{0.75, 0.5, 0}, []float32{1, 1, 0}},
		{true, []float32{1.25, 1, 0}, []float32{1.5, 1.5, 0}},
	} {
		adv, ret := []float32{7, 7, 7}, []float32{7, 7, 7}
		GAE(reward, value, 1, c.truncated, 1, 1, adv, ret)
		require.Equal(t, c.adv, adv, "truncated=%v", c.truncated)
		require.Equal(t, c.ret, ret, "truncated=%v", c.truncated)
	}
}

package trainer

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestWilsonLower: the bound at the figures the stop rule is argued with
// (confirm.go): at 1000 episodes and 99%, 2 failures support 0.99 and 3 do
// not; at 95% up to 4 do; a perfect score needs about 536 episodes.
func TestWilsonLower(t *testing.T) {
	require.InDelta(t, 0.99109, wilsonLower(998, 1000, ConfirmZ), 1e-5)
	require.InDelta(t, 0.98951, wilsonLower(997, 1000, ConfirmZ), 1e-5)
	const z95 = 1.6448536269514722
	require.GreaterOrEqual(t, wilsonLower(996, 1000, z95), 0.99)
	require.Less(t, wilsonLower(995, 1000, z95), 0.99)
	require.Less(t, wilsonLower(535, 535, ConfirmZ), 0.99)
	require.GreaterOrEqual(t, wilsonLower(536, 536, ConfirmZ), 0.99)
	// 198 of 200, what two periodic evaluations used to stop on, supports
	// only about 0.956.
	require.InDelta(t, 0.9564, wilsonLower(198, 200, ConfirmZ), 1e-4)
	require.Zero(t, wilsonLower(0, 0, ConfirmZ))
	require.Zero(t, wilsonLower(0, 1000, ConfirmZ))
}

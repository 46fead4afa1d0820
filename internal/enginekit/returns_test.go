package enginekit

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReturns: two episodes of three steps, step-major (step t of episode b
// at t*2 + b). Episode 0 is paid 1 then 2 and ends at step 1 (its first
// done flag; the flag after it changes nothing); episode 1 is paid 0.5 and
// 0.25 and runs past the rollout.
func TestReturns(t *testing.T) {
	reward := []float64{1, 0.5, 2, 0, 0, 0.25}
	done := []bool{false, false, true, false, true, false}
	ret, togo, end := make([]float32, 2), make([]float32, 6), make([]int32, 2)
	Returns(2, 3, reward, done, ret, togo, end)
	require.Equal(t, []float32{3, 0.75}, ret)
	require.Equal(t, []int32{1, 2}, end)
	// episode 0: 3, 2, then (past its end) its return 3; episode 1: 0.75, 0.25, 0.25
	require.Equal(t, []float32{3, 0.75, 2, 0.25, 3, 0.25}, togo)
}

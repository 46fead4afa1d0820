package trainer

import (
	"encoding/json"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/stretchr/testify/require"
)

// A checkpoint's history reads back as written, and a damaged one is
// refused with an error naming it, never a panic.
func TestCheckpointHistoryIsCheckedOnRead(t *testing.T) {
	f := &checkpoint.File{Metadata: map[string]string{}}
	tr := &Trainer{running: &Report{TrainReward: []float64{0.1, 0.2}, Evaluations: []EvalPoint{{Update: 2, SolveRate: []float64{1, 0}, MeanReward: []float64{1, 0}}}}}
	tr.saveHistory(f)
	h, err := readHistory(f, 2, 2)
	require.NoError(t, err)
	require.Equal(t, tr.running.TrainReward, h.TrainReward)
	require.Equal(t, tr.running.Evaluations, h.Evaluations)

	none, err := readHistory(&checkpoint.File{Metadata: map[string]string{}}, 5, 2)
	require.NoError(t, err)
	require.True(t, none.empty(), "a checkpoint from before the history resumes without one")

	point := func(u, levels int) EvalPoint {
		return EvalPoint{Update: u, SolveRate: make([]float64, levels), MeanReward: make([]float64, levels)}
	}
	for want, h := range map[string]history{
		"3 training rewards for 2 updates":   {TrainReward: []float64{1, 2, 3}},
		"an evaluation at update 3":          {Evaluations: []EvalPoint{point(3, 2)}},
		"an evaluation at update 1 (after 1": {Evaluations: []EvalPoint{point(1, 2), point(1, 2)}},
		"1 solve rates for 2 levels":         {Evaluations: []EvalPoint{point(1, 1)}},
	} {
		b, err := json.Marshal(h)
		require.NoError(t, err)
		_, err = readHistory(&checkpoint.File{Metadata: map[string]string{historyKey: string(b)}}, 2, 2)
		require.ErrorContains(t, err, want)
	}
	_, err = readHistory(&checkpoint.File{Metadata: map[string]string{historyKey: "{"}}, 2, 2)
	require.ErrorContains(t, err, "checkpoint history")

	defer func(m int) { maxHistory = m }(maxHistory)
	maxHistory = len(f.Metadata[historyKey]) - 1
	long := &checkpoint.File{Metadata: map[string]string{}}
	tr.saveHistory(long)
	require.NotContains(t, long.Metadata, historyKey, "a history longer than maxHistory stays out of the header")
}

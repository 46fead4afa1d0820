package trainer

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/stretchr/testify/require"
)

// TestOutputsMarkUnplayedLevelsNull: a level an evaluation did not play
// (the tape's longer sizes have no instance in the split) was written as a
// 0 never measured in the -metrics lines, their confirmations, the
// Evaluated hook's point (TensorBoard's scalars) and the checkpoint's
// history, beside "T2=—" on the console and null in the report's final.
// It is NaN in Go and null in the JSON everywhere, and reads back as such.
func TestOutputsMarkUnplayedLevelsNull(t *testing.T) {
	cfg := driveConfig()
	cfg.Updates, cfg.EvalEvery, cfg.StopAt, cfg.StopFrom = 4, 2, 0.9, 0
	cfg.TrainLevels = []int{0, 1} // level 2 untrained, as the tape's transfer sizes
	tr, _ := newFakeRun(cfg, func(c call, level int) float64 {
		if level == 2 {
			return -1 // never played
		}
		return 1
	})
	var metrics bytes.Buffer
	var hooked []EvalPoint
	rep, err := Drive(tr, io.Discard, Options{Quiet: true, Metrics: &metrics,
		Evaluated: func(p EvalPoint, _ bool) error { hooked = append(hooked, p); return nil }})
	require.NoError(t, err)
	require.NotEmpty(t, hooked)
	for _, p := range hooked {
		require.True(t, math.IsNaN(p.SolveRate[2]) && math.IsNaN(p.MeanReward[2]), "update %d: %v %v", p.Update, p.SolveRate, p.MeanReward)
		require.Equal(t, 1.0, p.SolveRate[0])
	}

	type confirmation struct {
		SolveRate  []*float64 `json:"solve_rate"`
		LowerBound []*float64 `json:"lower_bound"`
	}
	type line struct {
		SolveRate    []*float64    `json:"eval_solve_rate"`
		MeanReward   []*float64    `json:"eval_mean_reward"`
		Confirmation *confirmation `json:"confirmation"`
	}
	lines := bytes.Split(bytes.TrimSpace(metrics.Bytes()), []byte("\n"))
	require.Len(t, lines, len(hooked))
	confirmed := 0
	for _, b := range lines {
		var l line
		require.NoError(t, json.Unmarshal(b, &l), "%s", b)
		require.Len(t, l.SolveRate, 3)
		require.Nil(t, l.SolveRate[2], "%s", b)
		require.Nil(t, l.MeanReward[2], "%s", b)
		require.NotNil(t, l.SolveRate[0], "%s", b)
		if c := l.Confirmation; c != nil {
			confirmed++
			require.Nil(t, c.SolveRate[2], "%s", b)
			require.Nil(t, c.LowerBound[2], "%s", b)
			require.NotNil(t, c.LowerBound[0], "%s", b)
		}
	}
	require.Positive(t, confirmed, "a confirmation was written")

	var back EvalPoint
	require.NoError(t, json.Unmarshal(lines[0], &back))
	require.True(t, math.IsNaN(back.SolveRate[2]), "a metrics line's null reads back as not played")

	f := &checkpoint.File{Metadata: map[string]string{}}
	tr.running = rep
	tr.saveHistory(f)
	require.Contains(t, f.Metadata, historyKey, "a history with unplayed levels is saved")
	h, err := readHistory(f, rep.Updates, 3)
	require.NoError(t, err)
	require.Len(t, h.Evaluations, len(hooked))
	require.True(t, math.IsNaN(h.Evaluations[0].SolveRate[2]), "the checkpoint's history keeps the level not played")
	require.Equal(t, 1.0, h.Evaluations[0].SolveRate[0])
}

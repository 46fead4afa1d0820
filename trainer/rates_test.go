package trainer

import (
	"encoding/json"
	"io"
	"math"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/stretchr/testify/require"
)

// TestReportMarksUnplayedLevelsNull: the report's final.solve_rate said 0
// for a level its final evaluation did not play; it is null (NaN in Go),
// and reads back as not played.
func TestReportMarksUnplayedLevelsNull(t *testing.T) {
	cfg := driveConfig()
	cfg.Updates, cfg.StopAt = 2, 0
	tr, _ := newFakeRun(cfg, func(c call, level int) float64 {
		if c.round == enginekit.FinalRound && level == 2 {
			return -1 // not played
		}
		return 0.5
	})
	rep, err := Drive(tr, io.Discard, Options{Quiet: true})
	require.NoError(t, err)
	require.True(t, math.IsNaN(rep.Final.SolveRate[2]))
	require.False(t, math.IsNaN(rep.Final.SolveRate[0]))

	b, err := json.Marshal(rep)
	require.NoError(t, err)
	var raw struct {
		Final struct {
			SolveRate  []*float64 `json:"solve_rate"`
			MeanReward []*float64 `json:"mean_reward"`
		} `json:"final"`
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	require.Nil(t, raw.Final.SolveRate[2])
	require.Nil(t, raw.Final.MeanReward[2])
	require.InDelta(t, 0.5, *raw.Final.SolveRate[0], 1e-12)

	var back Report
	require.NoError(t, json.Unmarshal(b, &back))
	require.Len(t, back.Final.SolveRate, 3)
	require.True(t, math.IsNaN(back.Final.SolveRate[2]), "null reads back as not played")
	require.Equal(t, rep.Final.SolveRate[:2], back.Final.SolveRate[:2])
}

package cli

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestPlotSkipsUnplayedLevels: the evaluations now say null (NaN) for a
// level they did not play, where they said 0; -plot draws no point there
// (gonum refused the NaN data: the whole plot failed) and no line for a
// level never played.
func TestPlotSkipsUnplayedLevels(t *testing.T) {
	nan := math.NaN()
	rep := &trainer.Report{Config: trainer.DefaultRecipe(), Levels: []string{"a", "b", "c"}, TrainReward: []float64{0.1, 0.2, 0.3, 0.4},
		Evaluations: []trainer.EvalPoint{
			{Update: 2, SolveRate: []float64{0.5, nan, nan}, MeanReward: []float64{0.5, nan, nan}},
			{Update: 4, SolveRate: []float64{1, 0.5, nan}, MeanReward: []float64{1, 0.5, nan}},
		}}
	path := filepath.Join(t.TempDir(), "run.png")
	require.NoError(t, writePlot(path, rep))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(b, []byte("\x89PNG")), "a PNG")

}

// TestReportReadsUnplayedLevelsFromMetrics: simdrl report's curves read a
// -metrics line's null as a level not played (NaN, left out of the
// statistics), not as a solve rate of 0.
func TestReportReadsUnplayedLevelsFromMetrics(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"update":2,"eval_solve_rate":[1,null],"eval_mean_reward":[1,null]}`+"\n"), 0o644))
	curve, err := readCurve(path, 2)
	require.NoError(t, err)
	require.Len(t, curve, 1)
	require.Equal(t, 1.0, curve[0].SolveRate[0])
	require.True(t, math.IsNaN(curve[0].SolveRate[1]), "null is not played: %v", curve[0].SolveRate)
}

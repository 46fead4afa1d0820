package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// A resumed run's report, and so its -plot, is the whole run's: the
// evaluations and the training rewards of the updates before the
// checkpoint come back with it, the same as a run never stopped has.
func TestResumedRunsReportAndPlotAreWhole(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-task", "seed", "-eval-every", "10", "-eval-batch", "16", "-batch", "32", "-final-episodes", "16", "-explain", "0", "-stop-at", "0", "-entropy-updates", "60", "-threads", "1"}
	file := func(name string) string { return filepath.Join(dir, name) }
	code, _, errb := runCLI(append(common, "-updates", "60", "-report", file("straight.json"))...)
	require.Equal(t, 0, code, errb)
	code, _, errb = runCLI(append(common, "-updates", "30", "-save", file("ck.st"))...)
	require.Equal(t, 0, code, errb)
	code, _, errb = runCLI("-resume", file("ck.st"), "-updates", "60", "-report", file("resumed.json"), "-plot", file("resumed.png"), "-threads", "1")
	require.Equal(t, 0, code, errb)

	read := func(name string) *trainer.Report {
		b, err := os.ReadFile(file(name))
		require.NoError(t, err)
		rep := new(trainer.Report)
		require.NoError(t, json.Unmarshal(b, rep))
		return rep
	}
	straight, resumed := read("straight.json"), read("resumed.json")
	require.Equal(t, straight.ParamSHA256, resumed.ParamSHA256, "the resume continues bit-identically")
	require.Equal(t, straight.TrainReward, resumed.TrainReward, "every update's training reward, from update 1")
	require.Equal(t, curveOf(straight), curveOf(resumed), "every evaluation, from update 10")
	_, err := os.Stat(file("resumed.png"))
	require.NoError(t, err)
}

// curveOf is a report's evaluations without their timings.
func curveOf(rep *trainer.Report) []trainer.EvalPoint {
	out := make([]trainer.EvalPoint, len(rep.Evaluations))
	for i, p := range rep.Evaluations {
		p.UpdatesPerSecond = 0
		out[i] = p
	}
	return out
}

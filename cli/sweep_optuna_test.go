package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/internal/realparts"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestSweepOptunaTwoWorkersOnPostgres: two workers, each a process of its
// own with its own optuna subprocesses, share one study in a PostgreSQL
// server started by the test, until it has 6 complete trials: every trial
// the study holds is COMPLETE, was trained by exactly one worker, once,
// with the flags the study asked for, and told the value its report gives.
func TestSweepOptunaTwoWorkersOnPostgres(t *testing.T) {
	pg := realparts.StartOptunaPostgres(t)
	dir := t.TempDir()
	space := filepath.Join(dir, "space.json")
	require.NoError(t, os.WriteFile(space, []byte(`{
		"lr": {"name": "FloatDistribution", "attributes": {"low": 0.001, "high": 0.01, "log": true}},
		"entropy-coef": {"name": "FloatDistribution", "attributes": {"low": 0.0, "high": 0.1}}
	}`), 0o644))
	const want = 6
	runs := filepath.Join(dir, "trials")
	args := []string{"sweep", "optuna", "--storage", pg.URL, "--study", "calc", "--space", space,
		"--trials", strconv.Itoa(want), "--objective", "solve", "-dir", runs,
		"--", "-task", "calc", "-updates", "40", "-batch", "16", "-threads", "1", "-final-episodes", "100"}
	workers := []*child{startChild(t, "", false, args...), startChild(t, "", false, args...)}

	told := map[int]float64{} // trial number → the value a worker told
	line := regexp.MustCompile(`^simdrl: sweep optuna: trial (\d+): (\S+)$`)
	for i, w := range workers {
		code, stderr := w.exit(t)
		require.Equal(t, 0, code, "worker %d: %s", i, stderr)
		for _, l := range strings.Split(stderr, "\n") {
			m := line.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			n, _ := strconv.Atoi(m[1])
			v, err := strconv.ParseFloat(m[2], 64)
			require.NoError(t, err, "worker %d: %s", i, l)
			_, twice := told[n]
			require.False(t, twice, "trial %d trained twice (worker %d: %s)", n, i, stderr)
			told[n] = v
		}
	}

	out, err := exec.Command("optuna", "trials", "--storage", pg.URL, "--study-name", "calc", "-f", "json").Output()
	require.NoError(t, err)
	var trials []struct {
		Number int                `json:"number"`
		State  string             `json:"state"`
		Value  float64            `json:"value"`
		Params map[string]float64 `json:"params"`
	}
	require.NoError(t, json.Unmarshal(out, &trials))
	require.GreaterOrEqual(t, len(trials), want)
	require.Len(t, told, len(trials), "every trial in the study was told by a worker, and no other")
	for i, tr := range trials {
		require.Equal(t, i, tr.Number, "trial numbers run 0, 1, … without a gap")
		require.Equal(t, "COMPLETE", tr.State, "trial %d", tr.Number)
		require.Equal(t, told[tr.Number], tr.Value, "trial %d: the value told", tr.Number)
		var r trainer.Report
		data, err := os.ReadFile(filepath.Join(runs, "trial-"+strconv.Itoa(tr.Number), "report.json"))
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(data, &r))
		require.Equal(t, tr.Params["lr"], r.Config.LR, "trial %d ran with the lr it was asked", tr.Number)
		require.Equal(t, tr.Params["entropy-coef"], r.Config.EntropyCoef, "trial %d ran with the entropy-coef it was asked", tr.Number)
		require.Equal(t, objectives["solve"].of(&r), tr.Value, "trial %d told its report's solve rate", tr.Number)
	}
}

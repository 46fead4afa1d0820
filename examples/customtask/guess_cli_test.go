package customtask_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// guessRun is a short run of the guess task through its own command
// (cmd/guess, which chooses the task itself), evaluated every update.
var guessRun = []string{"-batch", "32", "-chunk", "16", "-eval-every", "1", "-eval-batch", "10", "-stop-at", "0", "-threads", "1"}

// TestGuessCommandLine: a task written once, as a step function, gets the
// whole command line from its own main: it trains until the stop rule
// stops it, its greedy solve rate in -report at least 0.99 (a policy that
// ignores the observations solves at most 4 of the 10 digits), the
// explanations show its observations, -save, -plot and -report write their
// files, and -resume continues the saved run.
func TestGuessCommandLine(t *testing.T) {
	dir := t.TempDir()
	bin := buildCommand(t, dir, "guess")

	rep, png := filepath.Join(dir, "run.json"), filepath.Join(dir, "run.png")
	out, err := exec.Command(bin, "-threads", "1", "-updates", "600", "-report", rep, "-plot", png).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, string(out), "Level 0 (guess) samples")
	require.Regexp(t, `trace: \d→\(obs (lower|higher|equal) · reward \d\)`, string(out), "the derived explanation names the observations")
	learned := report(t, rep)
	require.Equal(t, "guess", learned["config"].(map[string]any)["task"])
	require.Less(t, learned["updates"], 600.0, "the stop rule ends the run once it is solved")
	rate := learned["final"].(map[string]any)["solve_rate"].([]any)[0].(float64)
	require.GreaterOrEqual(t, rate, 0.99, string(out))
	plot, err := os.ReadFile(png)
	require.NoError(t, err)
	require.True(t, bytes.HasPrefix(plot, []byte("\x89PNG\r\n\x1a\n")), "-plot writes a PNG")

	// A run the stop rule ended is over; a run of a fixed length resumes.
	ck := filepath.Join(dir, "run.st")
	out, err = exec.Command(bin, append(guessRun, "-updates", "4", "-save", ck)...).CombinedOutput()
	require.NoError(t, err, string(out))
	require.FileExists(t, ck)
	resumed := filepath.Join(dir, "resumed.json")
	out, err = exec.Command(bin, "-resume", ck, "-updates", "6", "-report", resumed).CombinedOutput()
	require.NoError(t, err, string(out))
	require.Contains(t, string(out), "resuming after update 4")
	second := report(t, resumed)
	require.Equal(t, "guess", second["config"].(map[string]any)["task"])
	require.EqualValues(t, 6, second["updates"])
	evals := second["evaluations"].([]any)
	require.Len(t, evals, 6, "the report is the whole run's: updates 1 to 4 from the checkpoint, then the resumed run's 5 and 6")
	require.EqualValues(t, 5, evals[4].(map[string]any)["update"])
	require.Len(t, second["train_reward"], 6)
}

// TestGuessInterruptSavesAndResumes: SIGINT stops a run of the guess task
// as it stops maxdigit's (TestInterruptSavesAndResumes).
func TestGuessInterruptSavesAndResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the command three times")
	}
	requireInterruptResumes(t, "guess", guessRun)
}

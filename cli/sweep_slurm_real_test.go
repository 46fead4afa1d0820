package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/internal/realparts"
	"github.com/simdrl/simdrl/sweep"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// slurmHoldEnv, in the environment of a Slurm task that runs this test
// binary as the command, holds some tasks' first attempts: "N@K,L" makes
// array tasks K and L, on their first attempt (no SLURM_RESTART_COUNT),
// hold after update N until a signal stops them (childMain's hold=N); every
// other task and attempt runs plainly. Slurm exports one environment to every task of an
// array, so the choice is made here, before TestMain reads childEnv.
const slurmHoldEnv = "SIMDRL_TEST_SLURM_HOLD"

func init() {
	hold, ok := os.LookupEnv(slurmHoldEnv)
	if !ok || os.Getenv(childEnv) == "" {
		return
	}
	n, task, _ := strings.Cut(hold, "@")
	restart := os.Getenv("SLURM_RESTART_COUNT")
	if !slices.Contains(strings.Split(task, ","), os.Getenv("SLURM_ARRAY_TASK_ID")) || (restart != "" && restart != "0") {
		os.Setenv(childEnv, "none")
		return
	}
	os.Setenv(childEnv, "hold="+n)
	// childMain ends the first signal's burst when stdin closes, and a
	// batch task's stdin is /dev/null: the script's copy of Slurm's TERM
	// would then be a second request (exit at once), where the command's
	// own burst (a second) takes it for the copy it is. A stdin that never
	// closes keeps the burst open.
	r, w, err := os.Pipe()
	if err == nil {
		os.Stdin = r
		heldOpen = w
	}
}

// heldOpen is the write end of the held task's stdin, never closed.
var heldOpen *os.File

// TestSweepSlurmArrayWithARequeuedTask: `simdrl sweep slurm --submit` on a
// real one-node Slurm started by the test runs an array of 8 tiny runs. Two
// tasks are held after update 20 of their first attempt and stopped there:
// one requeued with `scontrol requeue` (Slurm's TERM: the worker saves and
// stops, Slurm requeues the task), the other warned as its time limit
// would warn it (USR1 to the batch shell alone: the script hands it on, the
// worker saves and stops, the script requeues the task). Every run
// completes, each stopped run's second attempt resumed its checkpoint, and
// its parameters equal those of its twin trained without a stop by the
// train command.
func TestSweepSlurmArrayWithARequeuedTask(t *testing.T) {
	slurm := realparts.StartSlurm(t)
	dir := t.TempDir()
	m, entries := writeManifest(t, dir, 8)
	runs := filepath.Join(dir, "runs")
	const requeued, warned, holdAt = 3, 5, 20
	t.Setenv("SLURM_CONF", slurm.Conf)
	t.Setenv(childEnv, "set by init") // the tasks run this binary as the command
	t.Setenv(slurmHoldEnv, fmt.Sprintf("%d@%d,%d", holdAt, requeued, warned))

	code, out, stderr := runSweep("slurm", m, "-dir", runs, "--parallel", "3", "--submit")
	require.Equal(t, 0, code, stderr)
	job := strings.TrimSpace(strings.Split(out, ";")[0])
	_, err := strconv.Atoi(job)
	require.NoError(t, err, "sbatch --parsable printed %q", out)
	logs := func() string {
		var b strings.Builder
		paths, _ := filepath.Glob(filepath.Join(runs, "logs", "*"))
		for _, p := range paths {
			data, _ := os.ReadFile(p)
			b.WriteString("--- " + p + "\n" + string(data))
		}
		return b.String() + slurm.Logs()
	}
	taskLog := func(k int) string { return filepath.Join(runs, "logs", fmt.Sprintf("%s_%d.out", job, k)) }
	awaitHeld := func(k int) {
		realparts.Await(t, fmt.Sprintf("task %d held after update %d", k, holdAt), func() (bool, string) {
			data, _ := os.ReadFile(taskLog(k))
			return strings.Contains(string(data), fmt.Sprintf("child: held at update %d", holdAt)), string(data)
		}, logs)
	}
	awaitHeld(requeued)
	o, err := slurm.Command("scontrol", "requeue", fmt.Sprintf("%s_%d", job, requeued)).CombinedOutput()
	require.NoError(t, err, "scontrol requeue: %s", o)
	awaitHeld(warned)
	// On a busy CPU slurmctld may answer scancel "Job can not be altered
	// now" while the signal is on its way: scancel retries until the task,
	// requeued and run again by that very signal, is done, and exits 229
	// (ESLURM_ALREADY_DONE, 2021, mod 256). Whether the signal did its work
	// is what the task's log says, checked below.
	o, err = slurm.Command("scancel", "--batch", "--signal=USR1", fmt.Sprintf("%s_%d", job, warned)).CombinedOutput()
	if err != nil {
		t.Logf("scancel --batch --signal=USR1: %v %s", err, o)
	}

	realparts.Await(t, "the array to finish", func() (bool, string) {
		o, err := slurm.Command("squeue", "-h", "-j", job, "-o", "%i %T").CombinedOutput()
		return err == nil && strings.TrimSpace(string(o)) == "", string(o)
	}, logs)

	for i, e := range entries {
		require.Truef(t, sweep.Of(runs, e.ID).Finished(), "entry %d (%s) did not finish\n%s", i, e.ID, logs())
	}
	for _, k := range []int{requeued, warned} {
		d := sweep.Of(runs, entries[k].ID)
		taskOut, err := os.ReadFile(taskLog(k))
		require.NoError(t, err)
		require.Equal(t, 1, strings.Count(string(taskOut), "child: held at update"), "task %d: its first attempt held, its second did not: %s", k, taskOut)
		require.Contains(t, string(taskOut), "stopped by", "task %d: the first attempt was stopped by a signal: %s", k, taskOut)
		if k == warned {
			require.Contains(t, string(taskOut), "requeueing", "task %d: the script requeued the task: %s", k, taskOut)
		}
		runLog, err := os.ReadFile(d.Log())
		require.NoError(t, err)
		require.Contains(t, string(runLog), "-resume "+d.Checkpoint(), "task %d: the second attempt resumed the run from its checkpoint: %s", k, runLog)

		twin := filepath.Join(dir, fmt.Sprintf("twin-%d.json", k))
		var twinErr strings.Builder
		require.Equal(t, 0, Run(append(append([]string{}, entries[k].Args...), "-quiet", "-report", twin), &strings.Builder{}, &twinErr), twinErr.String())
		require.Equal(t, reportHash(t, twin), reportHash(t, d.Report()), "task %d's run ends where a run never stopped ends\n%s", k, logs())
	}
}

// reportHash is a -report file's param_sha256.
func reportHash(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var r trainer.Report
	require.NoError(t, json.Unmarshal(data, &r))
	require.NotEmpty(t, r.ParamSHA256)
	return r.ParamSHA256
}

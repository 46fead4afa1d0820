package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/sweep"
	"github.com/stretchr/testify/require"
)

// sweepSpec is a small sweep: seeds 0 to n−1 of a short run that saves
// often.
func sweepSpec(t *testing.T, dir string, seeds int) string {
	spec := filepath.Join(dir, "spec.yaml")
	body := "base: {updates: 8, batch: 32, chunk: 16, eval-every: 2, eval-batch: 10, final-episodes: 20, explain: 0}\n" +
		fmt.Sprintf("seeds: {from: 0, to: %d}\n", seeds-1)
	require.NoError(t, os.WriteFile(spec, []byte(body), 0o644))
	return spec
}

// sweepCLI runs `simdrl sweep args…` in this process.
func sweepCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = dispatch(append([]string{"sweep"}, args...), Env{Stdout: &o, Stderr: &e})
	return code, o.String(), e.String()
}

// planned plans spec into dir/manifest.jsonl and reads it back.
func planned(t *testing.T, dir, spec string) (string, []sweep.Entry) {
	m := filepath.Join(dir, "manifest.jsonl")
	code, _, stderr := sweepCLI("plan", spec, "-o", m)
	require.Equal(t, 0, code, stderr)
	entries, err := sweep.ReadManifest(m)
	require.NoError(t, err)
	return m, entries
}

// twinSHA is the parameters' sha256 of entry e trained alone, in one go.
func twinSHA(t *testing.T, dir string, e sweep.Entry) string {
	rep := filepath.Join(dir, "twin-"+e.ID+".json")
	code, _, stderr := runCLI(append(append([]string{}, e.Args...), "-threads", "1", "-report", rep)...)
	require.Equal(t, 0, code, stderr)
	return readReport(t, rep)["param_sha256"].(string)
}

// attempts counts the attempts a run's log records.
func attempts(t *testing.T, d sweep.RunDir) int {
	return strings.Count(readFile(t, d.Log()), "simdrl sweep run: simdrl ")
}

// TestSweepIDsAreStable: an id is the resolved configuration's: a re-plan
// gives the same ids, a flag respelled (1e-3, --lr=…) or moved, or one that
// only names an output, gives the same id; a changed value another.
func TestSweepIDsAreStable(t *testing.T) {
	dir := t.TempDir()
	spec := sweepSpec(t, dir, 3)
	_, first := planned(t, dir, spec)
	_, again := planned(t, dir, spec)
	require.Equal(t, first, again)
	require.Len(t, first, 3)
	for _, e := range first {
		id, err := runID(e.Args)
		require.NoError(t, err)
		require.Equal(t, e.ID, id, "the manifest's id is its args'")
	}

	id := func(args ...string) string {
		t.Helper()
		s, err := runID(args)
		require.NoError(t, err, "%v", args)
		return s
	}
	base := id("-task", "calc", "-lr", "0.001", "-seed", "3", "-mask-after-answer=true")
	for _, same := range [][]string{
		{"-seed", "3", "--lr=1e-3", "-task", "calc", "-mask-after-answer"},
		{"-task", "calc", "-lr", "0.0010", "-seed", "3", "-threads", "1", "-quiet", "-device", "cpu", "-mask-after-answer=true"},
		{"-lr", "1E-3", "-seed=3", "-task=calc", "-report", filepath.Join(dir, "r.json"), "-mask-after-answer=true"},
	} {
		require.Equal(t, base, id(same...), "%v", same)
	}
	for _, other := range [][]string{
		{"-task", "calc", "-lr", "0.002", "-seed", "3", "-mask-after-answer=true"},
		{"-task", "calc", "-lr", "0.001", "-seed", "4", "-mask-after-answer=true"},
		{"-task", "calc", "-lr", "0.001", "-seed", "3", "-mask-after-answer=false"},
		{"-task", "calc", "-lr", "0.001", "-seed", "3", "-mask-after-answer=true", "-exhaustive", "10"},
	} {
		require.NotEqual(t, base, id(other...), "%v", other)
	}
	// A spec whose grid restates the recipe's value is one run, not two.
	spec2 := filepath.Join(dir, "dup.yaml")
	require.NoError(t, os.WriteFile(spec2, []byte("grid: {lr: [0.0003, 3e-4, 0.001]}\nbase: {updates: 1}\n"), 0o644))
	code, out, stderr := sweepCLI("plan", spec2)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 2, strings.Count(out, "\n"), out)
	require.Contains(t, stderr, "1 runs repeat an earlier run's configuration")
}

// TestSweepPlanRefusesBadSpecs: one line, exit 2.
func TestSweepPlanRefusesBadSpecs(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]string{
		"base: {lr: -1}\n":                                    "-lr",
		"base: {nosuch: 1}\n":                                 "unknown flag -nosuch",
		"base: {save: x.st}\n":                                "-save is the sweep's own",
		"grid: {lr: []}\n":                                    "-lr has no values",
		"base: {seed: 1}\nseeds: [1, 2]\n":                    "-seed is in both base and seeds",
		"bases: {lr: 1}\n":                                    "field bases not found",
		"random: {draws: 2, axes: {lr: {low: 1, hihg: 2}}}\n": "hihg",
	} {
		p := filepath.Join(dir, "s.yaml")
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		code, _, stderr := sweepCLI("plan", p)
		require.Equal(t, 2, code, "%q: %s", body, stderr)
		require.Contains(t, stderr, want, body)
		require.Equal(t, 1, strings.Count(stderr, "\n"), "%q", stderr)
	}
}

// TestSweepResumesAKilledWorker: plan → run → a worker killed (SIGKILL,
// nothing saved on the way out) mid-run while it holds an entry → another
// worker finds the entry locked by the live one and leaves it; once the
// holder is dead it takes the entry, resumes it from its last checkpoint,
// and runs the rest, two at a time: every run completes once, each
// bit-identical to its twin trained alone in one go; a third pass runs
// nothing.
func TestSweepResumesAKilledWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process; covered by the full test run")
	}
	dir := t.TempDir()
	manifest, entries := planned(t, dir, sweepSpec(t, dir, 3))
	runs := filepath.Join(dir, "runs")

	c := startChild(t, "hold=5", false, "sweep", "run", manifest, "-dir", runs, "--save-every", "2", "--threads", "1")
	c.await(t, "child: held at update 5")
	held := sweep.Of(runs, entries[0].ID)
	require.FileExists(t, held.Checkpoint(), "saved at update 4")

	// Alive, the holder keeps every other worker off its entry.
	code, _, stderr := sweepCLI("run", manifest, "-dir", runs, "--index", "0")
	require.Equal(t, exitBusy, code, stderr)
	require.Contains(t, stderr, entries[0].ID+": another worker holds it")

	require.NoError(t, c.cmd.Process.Kill())
	_ = c.cmd.Wait()
	require.NoFileExists(t, held.Done())

	code, _, stderr = sweepCLI("run", manifest, "-dir", runs, "--jobs", "2", "--threads", "1", "--save-every", "2")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "3 finished now, 0 finished before")
	require.Contains(t, readFile(t, held.Log()), "resuming after update 4")
	for i, e := range entries {
		d := sweep.Of(runs, e.ID)
		require.FileExists(t, d.Done())
		require.Equal(t, twinSHA(t, dir, e), readReport(t, d.Report())["param_sha256"], "entry %d", i)
		want := 1
		if i == 0 {
			want = 2 // killed once, resumed once
		}
		require.Equal(t, want, attempts(t, d), "entry %d", i)
	}

	code, _, stderr = sweepCLI("run", manifest, "-dir", runs)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "0 finished now, 3 finished before")
	require.Equal(t, 2, attempts(t, held))
}

// TestSweepSignalStopsEveryRun: one SIGTERM to a worker running two runs
// at once stops both, each saving its checkpoint, and the worker exits
// 75 (preempted): also the run still in its setup when it came, whose
// train command would, on a signal of its own, exit the whole process at
// once and lose the other run's updates since its last checkpoint. Run
// again, both end bit-identical to their twins.
func TestSweepSignalStopsEveryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as a process; covered by the full test run")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGUSR1} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			manifest, entries := planned(t, dir, sweepSpec(t, dir, 2))
			runs := filepath.Join(dir, "runs")
			// --save-every 100: the checkpoint at update 3 is the signal's.
			c := startChild(t, "hold=3,late=running", false, "sweep", "run", manifest, "-dir", runs, "--jobs", "2", "--threads", "1", "--save-every", "100")
			awaitAll(t, c, "child: held at update 3", "child: late at running") // in either order
			c.signal(t, sig, false)
			code, stderr := c.exit(t)
			require.Equal(t, exitPreempted, code, stderr)
			require.Contains(t, stderr, "child: stopping")
			require.Contains(t, stderr, "2 stopped by "+sig.String())

			code, _, stderr = sweepCLI("run", manifest, "-dir", runs, "--jobs", "2", "--threads", "1")
			require.Equal(t, 0, code, stderr)
			require.Contains(t, stderr, "2 finished now")
			resumed := 0
			for _, e := range entries {
				d := sweep.Of(runs, e.ID)
				require.Equal(t, twinSHA(t, dir, e), readReport(t, d.Report())["param_sha256"])
				if strings.Contains(readFile(t, d.Log()), "resuming after update 3") {
					resumed++
				}
			}
			require.Equal(t, 1, resumed, "the run held at update 3 resumed there")
		})
	}
}

// TestSweepJobsShareTheMemory: with memory for one run and a half, --jobs 2
// runs one at a time (each run alone fits; two do not); with plenty, two at
// once. Every run ends as it does alone.
func TestSweepJobsShareTheMemory(t *testing.T) {
	dir := t.TempDir()
	manifest, entries := planned(t, dir, sweepSpec(t, dir, 3))
	cfg, _, err := resolveRun(entries[0].Args)
	require.NoError(t, err)
	need, _ := cpu.Memory(cfg)
	require.Positive(t, need)
	saved := enginekit.AvailableMemory
	t.Cleanup(func() { enginekit.AvailableMemory = saved })
	for _, c := range []struct {
		have float64
		peak string
	}{{1.5 * need, "at most 1 at once"}, {1e15, "at most 2 at once"}} {
		enginekit.AvailableMemory = func() float64 { return c.have }
		runs := filepath.Join(dir, c.peak)
		code, _, stderr := sweepCLI("run", manifest, "-dir", runs, "--jobs", "2", "--threads", "1")
		require.Equal(t, 0, code, stderr)
		require.Contains(t, stderr, c.peak)
		for _, e := range entries {
			require.Equal(t, twinSHA(t, dir, e), readReport(t, sweep.Of(runs, e.ID).Report())["param_sha256"])
		}
	}
}

// TestSweepRunPicksItsEntries: --index, $SLURM_ARRAY_TASK_ID, then
// $JOB_COMPLETION_INDEX, --shard; bad ones exit 2.
func TestSweepRunPicksItsEntries(t *testing.T) {
	dir := t.TempDir()
	manifest, entries := planned(t, dir, sweepSpec(t, dir, 4))
	ran := func(runs string, args ...string) []bool {
		t.Helper()
		code, _, stderr := sweepCLI(append([]string{"run", manifest, "-dir", runs}, args...)...)
		require.Equal(t, 0, code, stderr)
		var out []bool
		for _, e := range entries {
			out = append(out, sweep.Of(runs, e.ID).Finished())
		}
		return out
	}
	require.Equal(t, []bool{false, false, true, false}, ran(filepath.Join(dir, "a"), "--index", "2"))
	t.Setenv("JOB_COMPLETION_INDEX", "3")
	require.Equal(t, []bool{false, false, false, true}, ran(filepath.Join(dir, "b")))
	t.Setenv("SLURM_ARRAY_TASK_ID", "1")
	require.Equal(t, []bool{false, true, false, false}, ran(filepath.Join(dir, "c")))
	require.Equal(t, []bool{true, false, true, false}, ran(filepath.Join(dir, "d"), "--shard", "0/2"))
	for _, args := range [][]string{{"--index", "4"}, {"--shard", "2/2"}, {"--index", "1", "--shard", "0/2"}, {"--jobs", "0"}} {
		code, _, stderr := sweepCLI(append([]string{"run", manifest, "-dir", filepath.Join(dir, "e")}, args...)...)
		require.Equal(t, 2, code, "%v: %s", args, stderr)
	}
	t.Setenv("SLURM_ARRAY_TASK_ID", "x")
	code, _, stderr := sweepCLI("run", manifest, "-dir", filepath.Join(dir, "f"))
	require.Equal(t, 2, code, stderr)
	require.Contains(t, stderr, "$SLURM_ARRAY_TASK_ID")
}

// awaitAll reads the child's stderr until every one of want has been on a
// line, in any order (runs at once tell of themselves in any order).
func awaitAll(t *testing.T, c *child, want ...string) {
	left := map[string]bool{}
	for _, w := range want {
		left[w] = true
	}
	for line := range c.lines {
		for w := range left {
			if strings.Contains(line, w) {
				delete(left, w)
			}
		}
		if len(left) == 0 {
			return
		}
	}
	t.Fatalf("the command ended without %v on stderr: %s", left, c.stderr())
}

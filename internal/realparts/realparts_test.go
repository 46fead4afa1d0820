package realparts

import (
	"os/exec"
	"strings"
	"testing"
)

// TestSlurmRunsAJob: the test Slurm runs a batch job to its end (sbatch
// --wait returns the job's exit code) and its output lands where asked.
func TestSlurmRunsAJob(t *testing.T) {
	s := StartSlurm(t)
	out := s.Dir + "/log/job.out"
	c := s.Command("sbatch", "--wait", "-o", out, "--wrap", "echo on $SLURM_CLUSTER_NAME; exit 3")
	err := c.Run()
	var exit *exec.ExitError
	if !errorAs(err, &exit) || exit.ExitCode() != 3 {
		t.Fatalf("sbatch --wait of a job that exits 3: %v\n%s", err, s.Logs())
	}
	data := readFile(t, out)
	if strings.TrimSpace(data) != "on simdrltest" {
		t.Fatalf("the job wrote %q, want %q", data, "on simdrltest")
	}
}

// TestPostgresServesOptuna: a study made in the test's server takes a trial
// through the optuna command's ask and tell.
func TestPostgresServesOptuna(t *testing.T) {
	p := StartOptunaPostgres(t)
	run := func(args ...string) string {
		out, err := exec.Command("optuna", append(args, "--storage", p.URL)...).Output()
		if err != nil {
			t.Fatalf("optuna %v: %v\n%s", args, err, p.Log())
		}
		return string(out)
	}
	run("create-study", "--study-name", "s", "--direction", "maximize")
	asked := run("ask", "--study-name", "s", "-f", "json", "--search-space",
		`{"x": {"name": "IntDistribution", "attributes": {"low": 1, "high": 3}}}`)
	if !strings.Contains(asked, `"number": 0`) {
		t.Fatalf("the first trial asked is not number 0: %s", asked)
	}
	run("tell", "--study-name", "s", "--trial-number", "0", "--values", "0.5")
	trials := run("trials", "--study-name", "s", "-f", "json")
	if !strings.Contains(trials, `"COMPLETE"`) {
		t.Fatalf("the trial told is not COMPLETE: %s", trials)
	}
}

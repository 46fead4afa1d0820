package stats

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// python is the interpreter that runs scripts/rliable_check.py:
// $SIMDRL_PYTHON, or /usr/bin/python3 (where Debian's python3-numpy and
// python3-scipy install).
func python() string {
	if p := os.Getenv("SIMDRL_PYTHON"); p != "" {
		return p
	}
	return "/usr/bin/python3"
}

// numpyMissing is why py cannot run the script ("" when it can).
func numpyMissing(py string) string {
	path, err := exec.LookPath(py)
	if err != nil {
		return fmt.Sprintf("no Python interpreter %s: %v", py, err)
	}
	out, err := exec.Command(path, "-c", "import numpy, scipy.stats").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%s cannot import numpy and scipy (%v): %s", path, err, strings.TrimSpace(string(out)))
	}
	return ""
}

// numpyRequired: SIMDRL_TEST_REQUIRE (comma-separated) names numpy.
func numpyRequired() bool {
	return slices.Contains(strings.Split(os.Getenv("SIMDRL_TEST_REQUIRE"), ","), "numpy")
}

func TestNumpyMissingReason(t *testing.T) {
	require.Contains(t, numpyMissing("/nonexistent/python3"), "no Python interpreter /nonexistent/python3")
	t.Setenv("SIMDRL_TEST_REQUIRE", "cuda,numpy")
	require.True(t, numpyRequired())
	t.Setenv("SIMDRL_TEST_REQUIRE", "")
	require.False(t, numpyRequired())
}

// TestExpectedIsTheScripts re-runs the independent script on the fixtures
// and checks that the committed expectations are exactly what it writes,
// so that the other tests compare against the script, not a stale file.
// Under -short (unless numpy is required) it skips: the script's
// resampling takes seconds of Python, the tests that read the committed
// file still run, and the full run re-runs the script.
func TestExpectedIsTheScripts(t *testing.T) {
	if testing.Short() && !numpyRequired() {
		t.Skip("-short: stats/testdata/expected.json is checked against scripts/rliable_check.py in the full `go test ./...`")
	}
	py := python()
	if why := numpyMissing(py); why != "" {
		if numpyRequired() {
			t.Fatalf("SIMDRL_TEST_REQUIRE=numpy but %s (apt-get install python3-numpy python3-scipy, or set SIMDRL_PYTHON)", why)
		}
		t.Skipf("%s; install python3-numpy and python3-scipy (or set SIMDRL_PYTHON) to re-run scripts/rliable_check.py", why)
	}
	cmd := exec.Command(py, "scripts/rliable_check.py", "stats/testdata/fixtures.json", "-")
	cmd.Dir = ".."
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	committed, err := os.ReadFile("testdata/expected.json")
	require.NoError(t, err)
	require.Equal(t, string(committed), string(out), "stats/testdata/expected.json is not what scripts/rliable_check.py writes: run it from the repository root")
}

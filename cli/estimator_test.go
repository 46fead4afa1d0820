package cli

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEstimatorFlags: each group estimator trains from the command line
// with -group, and a missing group or an unknown estimator is one usage
// line that names the flag.
func TestEstimatorFlags(t *testing.T) {
	for _, est := range []string{"rloo", "grpo", "drgrpo"} {
		args := append(append([]string{}, base...), "-estimator", est, "-group", "2")
		code, _, stderr := runCLI(args...)
		require.Equal(t, 0, code, "%s: %s", est, stderr)
	}
	for args, want := range map[[2]string]string{
		{"-estimator", "rloo"}: "simdrl: -estimator rloo compares the episodes of a group: it needs groups of at least 2, got 1: set -group\n",
		{"-estimator", "ppo"}:  "simdrl: -estimator must be empty (the -baseline), rloo, grpo or drgrpo, got \"ppo\"\n",
		{"-group", "3"}:        "simdrl: -group must divide the batch (8), got 3\n",
	} {
		code, _, stderr := runCLI(append(append([]string{}, base...), args[0], args[1])...)
		require.Equal(t, 2, code, "%v", args)
		require.Equal(t, want, stderr, "%v", args)
	}
}

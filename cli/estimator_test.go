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
		{"-estimator", "ppo2"}: "simdrl: -estimator must be empty (the -baseline), rloo, grpo, drgrpo or ppo, got \"ppo2\"\n",
		{"-group", "3"}:        "simdrl: -group must divide the batch (8), got 3\n",
	} {
		code, _, stderr := runCLI(append(append([]string{}, base...), args[0], args[1])...)
		require.Equal(t, 2, code, "%v", args)
		require.Equal(t, want, stderr, "%v", args)
	}
}

// TestPPOFlags: -estimator ppo trains from the command line with its
// flags, and each of them out of range is one usage line that names it.
func TestPPOFlags(t *testing.T) {
	ppo := append(append([]string{}, base...), "-estimator", "ppo")
	code, _, stderr := runCLI(append(ppo, "-ppo-epochs", "2", "-ppo-minibatches", "2", "-clip-coef", "0.1", "-gae-lambda", "0.9",
		"-gamma", "0.95", "-clip-vloss=false", "-norm-adv=false")...)
	require.Equal(t, 0, code, stderr)
	for args, want := range map[[2]string]string{
		{"-ppo-minibatches", "3"}: "simdrl: -ppo-minibatches must divide the batch (8), got 3\n",
		{"-ppo-epochs", "-1"}:     "simdrl: -ppo-epochs must be in 1..1000, got -1\n",
		{"-clip-coef", "-1"}:      "simdrl: -clip-coef must be in (0, 10], got -1\n",
		{"-gae-lambda", "1.5"}:    "simdrl: -gae-lambda must be in (0, 1], got 1.5\n",
		{"-gamma", "2"}:           "simdrl: -gamma must be in (0, 1], got 2\n",
	} {
		code, _, stderr := runCLI(append(append([]string{}, ppo...), args[0], args[1])...)
		require.Equal(t, 2, code, "%v", args)
		require.Equal(t, want, stderr, "%v", args)
	}
}

package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRunWritesToTheStreamsItIsGiven: Run trains on the streams it is
// handed, not the process's: the run's lines are in stdout, nothing in
// stderr.
func TestRunWritesToTheStreamsItIsGiven(t *testing.T) {
	var out, errb bytes.Buffer
	code := Run([]string{"-task", "calc", "-updates", "2", "-batch", "8", "-eval-every", "0", "-final-episodes", "8", "-explain", "0", "-exhaustive", "0", "-threads", "1"}, &out, &errb)
	require.Equal(t, 0, code, errb.String())
	require.Contains(t, out.String(), "Final greedy solve rates")
	require.Empty(t, errb.String())

	var out2, errb2 bytes.Buffer
	code = Run([]string{"train", "-task", "calc", "-updates", "2", "-batch", "8", "-eval-every", "0", "-final-episodes", "8", "-explain", "0", "-exhaustive", "0", "-threads", "2"}, &out2, &errb2)
	require.Equal(t, 0, code, errb2.String())
	require.Equal(t, paramsHash(t, out.String()), paramsHash(t, out2.String()), "simdrl train … is simdrl …, for any -threads")
}

func TestSubcommandsAreDispatchedWithTheirArguments(t *testing.T) {
	var got []string
	var gotEnv Env
	RegisterCommand(Command{Name: "test-echo", Summary: "echoes", Run: func(args []string, env Env) int {
		got, gotEnv = args, env
		_, _ = env.Stdout.Write([]byte("echoed\n"))
		return 7
	}})
	var out, errb bytes.Buffer
	require.Equal(t, 7, Run([]string{"test-echo", "-x", "y", "--", "z"}, &out, &errb))
	require.Equal(t, []string{"-x", "y", "--", "z"}, got)
	require.Equal(t, "echoed\n", out.String())
	require.NotNil(t, gotEnv.Signals, "a command run by Run is interrupted by the signals Run handles")

	out.Reset()
	require.Equal(t, 0, Run([]string{"help"}, &out, &errb))
	for _, want := range []string{"train ", "help ", "test-echo", "echoes"} {
		require.Contains(t, out.String(), want)
	}
}

func TestUnknownCommandsAreUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"trian", "-updates", "3"}, {"run.st"}, {"Train"}, {"help", "nosuch"}, {"help", "help"}} {
		var out, errb bytes.Buffer
		code := Run(args, &out, &errb)
		require.Equal(t, exitUsage, code, "%q", args)
		require.Empty(t, out.String(), "%q", args)
		require.Equal(t, 1, strings.Count(errb.String(), "\n"), "one line for %q: %s", args, errb.String())
		require.True(t, strings.HasPrefix(errb.String(), "simdrl: "), "%q: %s", args, errb.String())
	}
	var errb bytes.Buffer
	Run([]string{"trian"}, &bytes.Buffer{}, &errb)
	require.Contains(t, errb.String(), "train", "the message names the commands there are")
}

func TestHelpOfACommandIsItsDashH(t *testing.T) {
	var viaHelp, direct bytes.Buffer
	require.Equal(t, 0, Run([]string{"help", "train"}, &viaHelp, &bytes.Buffer{}))
	require.Equal(t, 0, Run([]string{"-h"}, &direct, &bytes.Buffer{}))
	require.Equal(t, direct.String(), viaHelp.String())
	require.Contains(t, direct.String(), "-updates")
}

func TestRegisterCommandRefusesWhatCannotBeTyped(t *testing.T) {
	nop := func([]string, Env) int { return 0 }
	for _, c := range []Command{{Name: "", Run: nop}, {Name: "-x", Run: nop}, {Name: "Sweep", Run: nop}, {Name: "a b", Run: nop},
		{Name: "train", Run: nop}, {Name: "no-run"}} {
		require.Panics(t, func() { RegisterCommand(c) }, "%q", c.Name)
	}
	_, ok := lookupCommand("no-run")
	require.False(t, ok)
}

// paramsHash is the "params sha256" a run's last line prints.
func paramsHash(t *testing.T, out string) string {
	_, h, ok := strings.Cut(out, "params sha256 ")
	require.True(t, ok, out)
	return strings.Fields(h)[0] // the hash, not the legend after it
}

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// timing is the closing line's measured part, which differs between two
// runs of the same training.
var timing = regexp.MustCompile(`(?m)^(\d+ updates in )[^;]*(; params sha256 [0-9a-f]+[^\r\n]*)\r?$`)

// sameRun is a run's output with the closing line's timings masked and a
// terminal's "\r\n" as "\n".
func sameRun(out string) string {
	return timing.ReplaceAllString(strings.ReplaceAll(out, "\r\n", "\n"), "${1}…${2}")
}

// underTerminal runs shell under script(1), which gives it a
// pseudo-terminal as stdin, stdout and stderr, and returns what reached the
// terminal.
func underTerminal(t *testing.T, shell string) string {
	script, err := exec.LookPath("script")
	require.NoError(t, err, "script(1), from util-linux (Debian: bsdutils), runs the command under a pseudo-terminal")
	cmd := exec.Command(script, "-qec", shell, "/dev/null")
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), out.String())
	return out.String()
}

// TestProgressBarOnlyOnATerminalStderr runs one training three ways: piped
// (no status line anywhere), with stderr on a pseudo-terminal and stdout
// redirected to a file (the bar, with the update, rate, ETA and the latest
// solve rates, is drawn on the terminal and erased at the end; the file is
// the piped run's output, byte for byte but the timings), and with stdout on
// the terminal and stderr redirected (no bar: stdout never gets it).
func TestProgressBarOnlyOnATerminalStderr(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary; covered by the full test run")
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	args := append([]string{"-updates", "6", "-threads", "1"}, small...)

	cmd := exec.Command(bin, args...)
	var piped, pipedErr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &piped, &pipedErr
	require.NoError(t, cmd.Run(), pipedErr.String())
	require.Empty(t, pipedErr.String())
	require.NotContains(t, piped.String(), "\r")
	require.NotContains(t, piped.String(), "\033")
	require.Contains(t, piped.String(), "update 6 (")

	command := bin + " " + strings.Join(args, " ")
	stdoutFile := filepath.Join(dir, "stdout.txt")
	tty := underTerminal(t, command+" >"+stdoutFile)
	for _, want := range []string{"\r\033[K[####", "] update 1/6  ", "] update 6/6  ", " updates/s  ETA ", "(at most)  solve rate T0=0.000 T1=0.000 T2=0.000"} {
		require.Containsf(t, tty, want, "the bar on the terminal: %q", tty)
	}
	require.True(t, strings.HasSuffix(tty, "\r\033[K"), "the bar is erased at the end: %q", tty)
	redirected, err := os.ReadFile(stdoutFile)
	require.NoError(t, err)
	require.Equal(t, sameRun(piped.String()), sameRun(string(redirected)), "stdout is as when piped")

	stderrFile := filepath.Join(dir, "stderr.txt")
	tty = underTerminal(t, command+" 2>"+stderrFile)
	require.Equal(t, sameRun(piped.String()), sameRun(tty), "no bar on a terminal stdout")
	errOut, err := os.ReadFile(stderrFile)
	require.NoError(t, err)
	require.Empty(t, errOut)
}

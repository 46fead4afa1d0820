package cli

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestTermWidthRereadOnResize: the width is read once, kept while the
// window keeps its size, and read again after a SIGWINCH (one or several
// queued), at the next line.
func TestTermWidthRereadOnResize(t *testing.T) {
	cols, queries := 80, 0
	resized := make(chan os.Signal, 2)
	w := &termWidth{query: func() int { queries++; return cols }, resized: resized}
	require.Equal(t, 80, w.width())
	cols = 40
	require.Equal(t, 80, w.width(), "no resize: the width read before")
	require.Equal(t, 1, queries)
	resized <- syscall.SIGWINCH
	resized <- syscall.SIGWINCH
	require.Equal(t, 40, w.width())
	require.Equal(t, 2, queries, "two resizes queued, one query")
	require.Equal(t, 40, w.width())
	require.Equal(t, 2, queries)
}

// TestProgressLineFitsTheTerminal runs a training under a pseudo-terminal
// 50 columns wide (stty): each status line drawn on it is at most 49
// characters, so it never wraps.
func TestProgressLineFitsTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary; covered by the full test run")
	}
	if _, err := exec.LookPath("stty"); err != nil {
		t.Fatalf("stty (coreutils) sets the pseudo-terminal's width: %v", err)
	}
	dir := t.TempDir()
	bin := buildBinary(t, dir)
	command := "stty cols 50 rows 24; " + bin + " " + strings.Join(append([]string{"-updates", "6", "-threads", "1"}, small...), " ") + " >/dev/null"
	tty := underTerminal(t, command)
	lines := 0
	for _, l := range strings.Split(tty, "\r\033[K") {
		if !strings.HasPrefix(l, "[") {
			continue
		}
		lines++
		require.LessOrEqualf(t, utf8.RuneCountInString(l), 49, "%q", l)
	}
	require.Equal(t, 6, lines, "%q", tty)
}

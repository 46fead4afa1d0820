package trainer

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// TestProgressLineFitsTheWidth: with ProgressWidth, every status line drawn
// is cut to one column less than the terminal's width (a line as wide as
// the terminal wraps, and each redraw would leave a stale row), read again
// before each line: a terminal narrowed mid-run gets shorter lines from
// then on. Without it the line is whole.
func TestProgressLineFitsTheWidth(t *testing.T) {
	cols := 80
	draws := 0
	tr, e := newFakeRun(driveConfig(), func(call, int) float64 { return 0.5 })
	e.afterUpdate = func(u int) {
		if u == 11 {
			cols = 30
		}
	}
	var progress bytes.Buffer
	_, err := Drive(tr, &bytes.Buffer{}, Options{Progress: &progress, ProgressWidth: func() int { draws++; return cols }})
	require.NoError(t, err)
	require.GreaterOrEqual(t, draws, 20, "the width is read before each line")
	lines := strings.Split(progress.String(), "\r\033[K")
	var drawn []string
	for _, l := range lines {
		if strings.HasPrefix(l, "[") {
			drawn = append(drawn, l)
		}
	}
	require.Len(t, drawn, 20)
	for i, l := range drawn {
		limit := 79
		if i+1 >= 11 {
			limit = 29
		}
		require.LessOrEqualf(t, utf8.RuneCountInString(l), limit, "update %d: %q", i+1, l)
	}
	require.Equal(t, "[##########----------] update 10/20  ", drawn[9][:37], "the line's start is kept")
	require.True(t, strings.HasPrefix(drawn[10], "[###########---------] update"), drawn[10])

	tr, _ = newFakeRun(driveConfig(), func(call, int) float64 { return 0.5 })
	progress.Reset()
	_, err = Drive(tr, &bytes.Buffer{}, Options{Progress: &progress})
	require.NoError(t, err)
	require.Contains(t, progress.String(), "(at most)  solve rate T0=0.500", "no width: the whole line, in the evaluation line's words")
	require.NotContains(t, progress.String(), "solved T0", "the bar's old word, read nowhere else")
}

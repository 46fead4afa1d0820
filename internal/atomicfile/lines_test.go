package atomicfile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestOpenAppendLinesEndsInAWholeLine: a file of lines whose last one was
// cut off is truncated to its last whole line (the whole file when it has
// none), one whose last line is whole but unended gets its newline, and a
// whole file, a missing one and a link's target are opened as they are;
// what is appended next follows a whole line.
func TestOpenAppendLinesEndsInAWholeLine(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat(`{"k":1}`+"\n", 20000) // the tail's search crosses blocks
	for _, c := range []struct {
		name, before, after string
		torn                int64
	}{
		{"cut off", "{\"a\":1}\n{\"a\":2}\n{\"a\"", "{\"a\":1}\n{\"a\":2}\n", 4},
		{"no whole line", "{\"a\":", "", 5},
		{"whole but unended", "{\"a\":1}\n{\"a\":2}", "{\"a\":1}\n{\"a\":2}\n", 0},
		{"whole", "{\"a\":1}\n", "{\"a\":1}\n", 0},
		{"empty", "", "", 0},
		{"long, cut off", long + strings.Repeat("x", 70000), long, 70000},
		{"missing", "-", "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_"))
			if c.before != "-" {
				require.NoError(t, os.WriteFile(p, []byte(c.before), 0o644))
			}
			link := p + ".link"
			require.NoError(t, os.Symlink(filepath.Base(p), link))
			f, torn, err := OpenAppendLines(link, json.Valid)
			require.NoError(t, err)
			require.Equal(t, c.torn, torn)
			_, err = f.WriteString("{\"b\":3}\n")
			require.NoError(t, err)
			require.NoError(t, f.Close())
			got, err := os.ReadFile(p)
			require.NoError(t, err)
			require.Equal(t, c.after+"{\"b\":3}\n", string(got))
			fi, err := os.Lstat(link)
			require.NoError(t, err)
			require.NotZero(t, fi.Mode()&os.ModeSymlink, "the link stays a link")
		})
	}
}

// TestOpenAppendLinesLeavesDevicesAlone: a device (or a descriptor of this
// process) is opened in place and never truncated.
func TestOpenAppendLinesLeavesDevicesAlone(t *testing.T) {
	f, torn, err := OpenAppendLines("/dev/null", json.Valid)
	require.NoError(t, err)
	require.Zero(t, torn)
	require.NoError(t, f.Close())
	_, _, err = OpenAppendLines(t.TempDir(), json.Valid)
	require.ErrorContains(t, err, "is a directory")
}

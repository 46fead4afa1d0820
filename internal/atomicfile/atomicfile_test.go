package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWriteReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.json")
	require.NoError(t, Write(p, []byte("old")))
	st, err := os.Stat(p)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o644), st.Mode().Perm())

	// A failure half-way through leaves the old file and no temporary file.
	err = WriteWith(p, []byte("new content"), func(f *os.File, data []byte) error {
		_, _ = f.Write(data[:3])
		return errors.New("disk full")
	})
	require.ErrorContains(t, err, "disk full")
	got, err := os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "old", string(got))
	es, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, es, 1)

	require.NoError(t, Write(p, []byte("new")))
	got, err = os.ReadFile(p)
	require.NoError(t, err)
	require.Equal(t, "new", string(got))
	require.Error(t, Write(filepath.Join(dir, "missing", "x"), nil))
}

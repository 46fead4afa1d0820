package countdowntask

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMain keeps the tests' listings out of the user's cache directory: one
// temporary directory for the whole test binary (so that the listing is
// drawn once and then read back, as a user's second start reads it), named
// by XDG_CACHE_HOME (Linux, os.UserCacheDir) and HOME (the others). A
// binary that cannot make it does not run rather than write the user's.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "countdowntask-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "countdowntask tests: no temporary cache directory:", err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	os.Setenv("HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// The listings the tests draw go to the temporary directory.
func TestCacheIsTemporary(t *testing.T) {
	for _, n := range []int{3, 4} {
		path := cachePath(n)
		rel, err := filepath.Rel(os.TempDir(), path)
		require.NoError(t, err)
		require.False(t, strings.HasPrefix(rel, ".."), "the tests' cache %s is outside %s", path, os.TempDir())
	}
}

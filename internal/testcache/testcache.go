// Package testcache keeps a test binary out of the user's cache directory.
// A task may cache what it builds there (tasks/countdowntask's listings,
// keyed by its spec); a test that opens such a task must not leave files in
// the cache of whoever runs `go test ./...`.
package testcache

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Main runs m with os.UserCacheDir pointing into one temporary directory
// for the whole binary (XDG_CACHE_HOME on Linux, HOME elsewhere), so that a
// cache is built once and read back, as a user's second start reads it.
// It removes the directory afterwards. A binary that cannot make it does
// not run rather than write the user's cache.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "simdrl-test-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "tests: no temporary cache directory:", err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	os.Setenv("HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// RequireTemporary fails t unless os.UserCacheDir is under os.TempDir: the
// check that a package opening a caching task runs its tests through Main.
func RequireTemporary(t *testing.T) {
	t.Helper()
	dir, err := os.UserCacheDir()
	require.NoError(t, err)
	rel, err := filepath.Rel(os.TempDir(), dir)
	require.NoError(t, err)
	require.False(t, rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)),
		"the tests' cache directory %s is outside %s: run the package's tests through testcache.Main", dir, os.TempDir())
}

package countdowntask

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/internal/testcache"
	"github.com/stretchr/testify/require"
)

// TestMain keeps the tests' listings out of the user's cache directory
// (drawn once per binary, then read back, as a user's second start reads it).
func TestMain(m *testing.M) { testcache.Main(m) }

// The listings the tests draw go to the temporary directory.
func TestCacheIsTemporary(t *testing.T) {
	for _, n := range []int{3, 4} {
		path := cachePath(n)
		rel, err := filepath.Rel(os.TempDir(), path)
		require.NoError(t, err)
		require.False(t, strings.HasPrefix(rel, ".."), "the tests' cache %s is outside %s", path, os.TempDir())
	}
}

package interop_test

import (
	"testing"

	"github.com/simdrl/simdrl/internal/testcache"
)

// TestMain keeps the cache a task builds (countdown's listings) out of the
// user's cache directory.
func TestMain(m *testing.M) { testcache.Main(m) }

// The package opens countdown tasks, which cache their listings.
func TestUserCacheIsTemporary(t *testing.T) { testcache.RequireTemporary(t) }

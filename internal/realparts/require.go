package realparts

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// Required says whether SIMDRL_TEST_REQUIRE (a comma-separated list) names
// part: then a missing part fails the test instead of skipping it.
func Required(part string) bool {
	return slices.Contains(strings.Split(os.Getenv("SIMDRL_TEST_REQUIRE"), ","), part)
}

// missing skips t because part cannot run (why), or fails it when the part
// is required.
func missing(t testing.TB, part, why, install string) {
	t.Helper()
	if Required(part) {
		t.Fatalf("SIMDRL_TEST_REQUIRE=%s but %s (%s)", part, why, install)
	}
	t.Skipf("skipping: %s (%s, as root, to run it; SIMDRL_TEST_REQUIRE=%s fails instead)", why, install, part)
}

// long skips t under -short, unless part is required: a real part takes
// seconds to start, and its tests run minutes.
func long(t testing.TB, part string) {
	t.Helper()
	if testing.Short() && !Required(part) {
		t.Skipf("skipping under -short: the test starts the real parts for %s, a matter of minutes (SIMDRL_TEST_REQUIRE=%s runs it anyway)", part, part)
	}
}

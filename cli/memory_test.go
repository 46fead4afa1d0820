package cli

import (
	"runtime"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/stretchr/testify/require"
)

// TestRefusesWhatTheMachineCannotHold: an expr run whose trainer records
// 16777216 episodes an update, or replays as many, on a machine with less
// memory than that takes (4 GiB here), is one usage line naming the flag,
// exit 2, before the buffers are allocated (instead of being killed for
// memory).
func TestRefusesWhatTheMachineCannotHold(t *testing.T) {
	saved := enginekit.AvailableMemory
	defer func() { enginekit.AvailableMemory = saved }()
	enginekit.AvailableMemory = func() float64 { return 4 << 30 }
	for _, c := range []struct{ flag, lower string }{{"-batch", "lower -batch"}, {"-replay", "lower -replay"}} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, _, stderr := runCLI("-task", "expr", c.flag, "16777216", "-updates", "1")
		runtime.ReadMemStats(&after)
		require.Equalf(t, 2, code, "%s: %s", c.flag, stderr)
		require.Truef(t, strings.HasPrefix(stderr, "simdrl: this run needs "), "%s: %q", c.flag, stderr)
		require.Contains(t, stderr, "and 4.0 GiB is available: "+c.lower)
		require.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
		require.Less(t, float64(after.TotalAlloc-before.TotalAlloc), float64(1<<30), "refused after allocating")
	}
}

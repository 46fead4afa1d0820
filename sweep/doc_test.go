package sweep

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDocSpecsPlan: the specs docs/experiments.md shows parse and make the
// number of runs it says (240, then the reverse task's 20).
func TestDocSpecsPlan(t *testing.T) {
	raw, err := os.ReadFile("../docs/experiments.md")
	require.NoError(t, err)
	var specs []string
	for _, block := range strings.Split(string(raw), "```yaml\n")[1:] {
		body, _, ok := strings.Cut(block, "```")
		require.True(t, ok)
		specs = append(specs, body)
	}
	require.Len(t, specs, 2)
	for i, want := range []int{240, 20} {
		s, err := ParseSpec([]byte(specs[i]))
		require.NoError(t, err, specs[i])
		require.Len(t, s.Runs(), want)
	}
}

package cli

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEntropyUpdatesFlag: -updates lengthens a calc run but not its entropy
// decay (6000 updates, the recipe's); -entropy-updates sets the decay's
// length, 0 meaning over -updates.
func TestEntropyUpdatesFlag(t *testing.T) {
	var buf bytes.Buffer
	c, err := parseFlags([]string{"-task", "calc", "-updates", "40000"}, &buf)
	require.NoError(t, err)
	require.Equal(t, 40000, c.Updates)
	require.Equal(t, 6000, c.EntropyUpdates)
	require.Zero(t, c.EntropyAt(6000))
	c, err = parseFlags([]string{"-task", "calc", "-updates", "40000", "-entropy-updates", "0"}, &buf)
	require.NoError(t, err)
	require.Zero(t, c.EntropyUpdates)
	require.Positive(t, c.EntropyAt(6000), "0: the decay stretches over -updates")
	c, err = parseFlags(nil, &buf)
	require.NoError(t, err)
	require.Zero(t, c.EntropyUpdates, "the seed task's default decays over -updates")
	_, err = parseFlags([]string{"-entropy-updates", "-1"}, &buf)
	require.ErrorContains(t, err, "-entropy-updates must be in 0..1073741824, got -1")
}

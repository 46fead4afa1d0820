package importcheck

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Disallowed reads the package's files but its tests, and names each
// import neither of the standard library nor allowed.
func TestDisallowed(t *testing.T) {
	files, bad, err := Disallowed("testdata/mixed", "example.com/allowed")
	require.NoError(t, err)
	require.Equal(t, 2, files)
	require.Equal(t, []string{"a.go imports example.com/other"}, bad)

	_, bad, err = Disallowed("testdata/mixed", "example.com/allowed", "example.com/other")
	require.NoError(t, err)
	require.Empty(t, bad)
}

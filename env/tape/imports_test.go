package tape

import (
	"testing"

	"github.com/simdrl/simdrl/internal/importcheck"
	"github.com/stretchr/testify/require"
)

// The package imports the standard library, the hold-out rule
// (env/internal/holdout) and its contract with engines (env/taperules)
// only (no task, gru, trainer or engine): its plug-in wraps it.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	files, bad, err := importcheck.Disallowed(".", "github.com/simdrl/simdrl/env/internal/holdout", "github.com/simdrl/simdrl/env/taperules")
	require.NoError(t, err)
	require.NotZero(t, files)
	require.Empty(t, bad)
}

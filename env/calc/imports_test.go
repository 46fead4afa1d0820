package calc

import (
	"testing"

	"github.com/simdrl/simdrl/internal/importcheck"
	"github.com/stretchr/testify/require"
)

// The package may import the standard library, rng and env/interp (its op
// table's type), nothing else of the module (no gru, trainer, gpu, nor the
// seed's env): every engine must be able to use it.
func TestImportsOnlyTheStandardLibraryRngAndInterp(t *testing.T) {
	files, bad, err := importcheck.Disallowed(".", "github.com/simdrl/simdrl/rng", "github.com/simdrl/simdrl/env/interp")
	require.NoError(t, err)
	require.Greater(t, files, 5)
	require.Empty(t, bad)
}

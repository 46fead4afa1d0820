package expr

import (
	"testing"

	"github.com/simdrl/simdrl/internal/importcheck"
	"github.com/stretchr/testify/require"
)

// The package imports the standard library, env/calc, env/interp and the
// hold-out rule (env/internal/holdout) only (no task, gru, trainer or
// engine): its plug-in wraps it, as calc's wraps calc.
func TestImportsOnlyTheStandardLibraryCalcAndInterp(t *testing.T) {
	files, bad, err := importcheck.Disallowed(".", "github.com/simdrl/simdrl/env/calc", "github.com/simdrl/simdrl/env/interp",
		"github.com/simdrl/simdrl/env/internal/holdout")
	require.NoError(t, err)
	require.NotZero(t, files)
	require.Empty(t, bad)
}

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestCheckEstimator: the CUDA engine refuses the group estimators and
// groups above 1 with one line that names the setting and the way out,
// and takes today's baselines.
func TestCheckEstimator(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	require.NoError(t, checkEstimator(cfg))
	cfg.Group = 1
	require.NoError(t, checkEstimator(cfg))
	for _, est := range trainer.GroupEstimators {
		c := cfg
		c.Estimator, c.Group = est, 4
		err := checkEstimator(c)
		require.ErrorContains(t, err, "estimator "+est+": the CUDA engine has only the -baseline estimators")
		require.NotContains(t, err.Error(), "\n")
	}
	cfg.Group = 4
	require.ErrorContains(t, checkEstimator(cfg), "group 4: the CUDA engine draws one instance per episode so far; train groups with -device cpu")
}

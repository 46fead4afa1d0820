//go:build cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/gpu/internal/devfn"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestEstimatorCode: each estimator and baseline is the number loss.cuh
// gives it, and only the group estimators are left to simdrl_estimate.
func TestEstimatorCode(t *testing.T) {
	codes := devfn.EstimatorCodes()
	cfg := trainer.DefaultRecipe()
	for _, c := range []struct {
		baseline, estimator string
		want                int
	}{{"sum", "", codes.Sum}, {"step", "", codes.Step}, {"step", trainer.EstimatorRLOO, codes.RLOO},
		{"sum", trainer.EstimatorGRPO, codes.GRPO}, {"step", trainer.EstimatorDrGRPO, codes.DrGRPO}} {
		cfg.Baseline, cfg.Estimator = c.baseline, c.estimator
		got := estimatorCode(cfg)
		require.Equal(t, c.want, got, "%+v", c)
		require.Equal(t, c.estimator != "", groupEstimator(got), "%+v", c)
		require.Equal(t, devfn.GroupIs(got), groupEstimator(got), "%+v", c)
	}
}

//go:build cgo

package gpu

import (
	"testing"

	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestStepsBoundFitsTheTape: the GPU runs rollouts as long as the CPU's, so
// that the tape task's longest budgets (its 32-leaf expressions, branching
// too) run there; a run asking for more than trainer.MaxSteps is refused
// by the config before any engine.
func TestStepsBoundFitsTheTape(t *testing.T) {
	require.Equal(t, trainer.MaxSteps, MaxSteps)
	for _, spec := range []string{"", "branching=on", "rules=loose", "pending=h"} {
		tk, err := task.Open("tape", spec)
		require.NoError(t, err)
		longest := 0
		for _, l := range tk.Levels() {
			longest = max(longest, l.Budget)
		}
		require.Greater(t, longest, 64, "the old bound, which the tape's budgets passed")
		require.LessOrEqual(t, longest, MaxSteps, "spec %q", spec)
	}
	cfg := trainer.DefaultRecipe()
	cfg.Task = "calc"
	cfg, err := trainer.WithTask(cfg)
	require.NoError(t, err)
	cfg.Steps = MaxSteps + 1
	require.Error(t, cfg.Validate())
}

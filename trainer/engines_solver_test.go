package trainer_test

import (
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestCPUEngineIsAGreedySolver: the CPU engine's GreedySolved is what the
// trainer's exhaustive listing and subsets ask for; a rename or a changed
// signature on either side would fall back to GreedyPrograms silently.
func TestCPUEngineIsAGreedySolver(t *testing.T) {
	e, err := cpu.New(trainer.DefaultRecipe())
	require.NoError(t, err)
	defer e.Close()
	require.True(t, trainer.AsksGreedySolved(e))
}

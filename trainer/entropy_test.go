package trainer

import (
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/stretchr/testify/require"
)

// TestEntropyUpdates: the decay's length is its own setting: over
// EntropyUpdates, then EntropyFinal holds however long the run; 0 keeps the
// old schedule over Updates, bit for bit.
func TestEntropyUpdates(t *testing.T) {
	c := Config{EntropyCoef: 0.5, EntropyFinal: 0, Updates: 40000, EntropyUpdates: 6000}
	short := Config{EntropyCoef: 0.5, EntropyFinal: 0, Updates: 6000}
	for _, u := range []int{1, 2, 3000, 5999, 6000} {
		require.Equalf(t, short.EntropyAt(u), c.EntropyAt(u), "update %d", u)
	}
	require.Equal(t, 0.0, c.EntropyAt(6000))
	require.Equal(t, 0.0, c.EntropyAt(25500), "no exploration left after the decay")
	require.Equal(t, 0.5, c.EntropyAt(1))

	old := Config{EntropyCoef: 0.5, EntropyFinal: 0, Updates: 40000}
	require.InDelta(t, 0.5*(1-3000.0/39999), old.EntropyAt(3001), 1e-15, "0: over -updates, as before")
	c.EntropyFinal = -1
	require.Equal(t, 0.5, c.EntropyAt(39999), "a constant coefficient ignores the length")
	one := Config{EntropyCoef: 0.5, EntropyFinal: 0.1, Updates: 10, EntropyUpdates: 1}
	require.Equal(t, 0.5, one.EntropyAt(1))
	require.Equal(t, 0.1, one.EntropyAt(2))
}

// TestEntropyUpdatesValidated: the length is a count of updates.
func TestEntropyUpdatesValidated(t *testing.T) {
	c := DefaultRecipe()
	c.EntropyUpdates = -1
	require.EqualError(t, c.Validate(), "entropy_updates must be in 0..1073741824, got -1")
	c.EntropyUpdates = MaxUpdates + 1
	require.Error(t, c.Validate())
	c.EntropyUpdates = MaxUpdates
	require.NoError(t, c.Validate())
}

// TestCalcRecipeDecaysOver6000: the calc task's default recipe sets the
// decay's length, so -updates alone lengthens the run, not the exploration;
// the seed task's recipes keep 0.
func TestCalcRecipeDecaysOver6000(t *testing.T) {
	c := DefaultRecipe()
	c.Task = "calc"
	c, err := WithTask(c)
	require.NoError(t, err)
	require.Equal(t, 6000, c.EntropyUpdates)
	require.Equal(t, 6000, c.Updates)
	require.Zero(t, DefaultRecipe().EntropyUpdates)
	require.Zero(t, ReferenceRecipe().EntropyUpdates)
}

// TestCheckpointWithoutEntropyUpdates: a checkpoint written before the
// setting existed loads with 0, the schedule over its updates.
func TestCheckpointWithoutEntropyUpdates(t *testing.T) {
	f, err := checkpoint.ReadFile("../testdata/checkpoints-legacy/before-entropy-updates-and-solved.safetensors")
	require.NoError(t, err)
	require.NotContains(t, f.Metadata["config"], "entropy_updates", "the fixture must predate the key")
	cfg, err := CheckpointConfig(f)
	require.NoError(t, err)
	require.Zero(t, cfg.EntropyUpdates)
	require.Equal(t, 2, cfg.Updates)
	require.Equal(t, cfg.EntropyFinal, cfg.EntropyAt(2), "decayed over the checkpoint's 2 updates")
}

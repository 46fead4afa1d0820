package trainer

import (
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/stretchr/testify/require"
)

func TestLevelAt(t *testing.T) {
	c := ReferenceRecipe()
	got := []int{}
	for u := 1; u <= 60; u += 10 {
		got = append(got, c.levelAt(u))
	}
	require.Equal(t, []int{0, 0, 0, 1, 1, 2}, got)
	require.Equal(t, 0, c.levelAt(30))
	require.Equal(t, 1, c.levelAt(31))
	require.Equal(t, 2, c.levelAt(61))
}

// TestLegacyCheckpointConfig: a checkpoint written when the config still held
// the device, the report path and quiet (now command-line state) still loads.
func TestLegacyCheckpointConfig(t *testing.T) {
	f, err := checkpoint.ReadFile("../testdata/checkpoints-legacy/config-with-device-report-quiet.safetensors")
	require.NoError(t, err)
	require.Contains(t, f.Metadata["config"], `"device"`, "the fixture must hold the legacy keys")
	cfg, err := CheckpointConfig(f)
	require.NoError(t, err)
	require.Equal(t, 4, cfg.Hidden)
	// An unknown key that was never part of the config is still refused.
	f.Metadata["config"] = f.Metadata["config"][:1] + `"colour":"red",` + f.Metadata["config"][1:]
	_, err = CheckpointConfig(f)
	require.ErrorContains(t, err, `unknown field "colour"`)
}

package trainer

import (
	"encoding/json"
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

// TestContextSetting: the bag is the zero value and leaves the JSON as it
// was before the option (so configs and their hashes are unchanged); read
// is written; anything else is one clear error; a checkpoint's "context"
// reads back, and one without it is the bag.
func TestContextSetting(t *testing.T) {
	c := DefaultRecipe()
	require.False(t, c.Context == ContextRead)
	raw, err := json.Marshal(c)
	require.NoError(t, err)
	require.NotContains(t, string(raw), "context")
	c.Context = ContextRead
	require.True(t, c.Context == ContextRead)
	raw, err = json.Marshal(c)
	require.NoError(t, err)
	require.Contains(t, string(raw), `"context":"read"`)
	require.NoError(t, c.Validate())
	c.Context = ContextBag
	require.NoError(t, c.Validate())
	require.False(t, c.Context == ContextRead)
	c.Context = "sideways"
	require.EqualError(t, c.Validate(), `context must be bag or read, got "sideways"`)

	f, err := checkpoint.ReadFile("../testdata/checkpoints-legacy/config-with-device-report-quiet.safetensors")
	require.NoError(t, err)
	cfg, err := CheckpointConfig(f)
	require.NoError(t, err)
	require.Empty(t, cfg.Context, "a checkpoint from before the option is the bag")
	f.Metadata["config"] = f.Metadata["config"][:1] + `"context":"read",` + f.Metadata["config"][1:]
	cfg, err = CheckpointConfig(f)
	require.NoError(t, err)
	require.Equal(t, ContextRead, cfg.Context)
}

package cli

import (
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestResourceErrorTurnsABooleanOff: a run refused for memory says to
// lower a numeric flag that drives it, and to turn off a boolean one
// (-item-focus), which cannot be lowered.
func TestResourceErrorTurnsABooleanOff(t *testing.T) {
	msg := flagError(&trainer.ResourceError{Need: 3 << 30, Have: 1 << 30, Knob: "item_focus"})
	require.Contains(t, msg, "-item-focus=false")
	require.NotContains(t, msg, "lower")
	msg = flagError(&trainer.ResourceError{Need: 3 << 30, Have: 1 << 30, Knob: "final_episodes"})
	require.Contains(t, msg, "lower -final-episodes")
}

package trainer

import (
	"fmt"

	"github.com/simdrl/simdrl/internal/enginekit"
)

// ResourceError refuses a configuration that needs more memory than the
// machine (or the device) has, before anything is allocated. Knob names the
// Config field (by its JSON name) that drives the need, for the caller to
// name its flag.
type ResourceError struct {
	Need, Have float64 // bytes
	Knob       string
}

func (e *ResourceError) Error() string {
	return fmt.Sprintf("this configuration needs %s of memory and %s is available (%s drives it)", enginekit.FormatBytes(e.Need), enginekit.FormatBytes(e.Have), e.Knob)
}

package trainer

import "fmt"

// ResourceError refuses a configuration that needs more memory than the
// machine (or the device) has, before anything is allocated. Knob names the
// Config field (by its JSON name) that drives the need, for the caller to
// name its flag.
type ResourceError struct {
	Need, Have float64 // bytes
	Knob       string
}

func (e *ResourceError) Error() string {
	return fmt.Sprintf("this configuration needs %s of memory and %s is available (%s drives it)", formatBytes(e.Need), formatBytes(e.Have), e.Knob)
}

// formatBytes writes a byte count for people: 3.4 GiB, 12.0 MiB, 96 KiB.
func formatBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", b/(1<<10))
}

package enginekit

import "fmt"

// FormatBytes writes a byte count for people: 3.4 GiB, 12.0 MiB, 96 KiB
// (trainer.ResourceError's message and the command's).
func FormatBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", b/(1<<10))
}

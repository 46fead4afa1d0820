package trainer

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
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
	return fmt.Sprintf("this configuration needs %s of memory and %s is available (%s drives it)", FormatBytes(e.Need), FormatBytes(e.Have), e.Knob)
}

// FormatBytes writes a byte count for people: 3.4 GiB, 12.0 MiB, 96 KiB.
func FormatBytes(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	}
	return fmt.Sprintf("%.0f KiB", b/(1<<10))
}

// AvailableMemory is the memory this process may still allocate, in bytes:
// the lesser of the kernel's MemAvailable and the cgroup's limit, or 0 when
// neither can be read (then nothing is refused). Tests replace it.
var AvailableMemory = func() float64 {
	have := 0.0
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
				if kb, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64); err == nil {
					have = kb * 1024
				}
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if limit, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && (have == 0 || limit < have) {
			have = limit
		}
	}
	return have
}

package enginekit

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

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

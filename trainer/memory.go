package trainer

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/simdrl/simdrl/env"
	"github.com/simdrl/simdrl/gru"
)

// ResourceError refuses a configuration that needs more memory than the
// machine has, before anything is allocated. Knob names the Config field
// (by its JSON name) that drives the need, for the caller to name its flag.
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

// chunkSize is the episodes per chunk the CPU engine uses: -chunk, at most
// the batch (a larger chunk would only hold memory no pass uses in training).
func (c *Config) chunkSize() int { return max(1, min(c.Chunk, c.Batch)) }

// largestPass is the most episodes one pass (an update, an evaluation round)
// plays.
func (c *Config) largestPass() int { return max(c.Batch, c.EvalBatch, c.FinalEpisodes, 1) }

// workers is how many pool workers the CPU engine starts: -threads, at most
// the chunks of the largest pass (the others would never get a chunk).
func (c *Config) workers() int {
	chunk := c.chunkSize()
	return max(1, min(c.Threads, (c.largestPass()+chunk-1)/chunk))
}

// CPUMemory estimates the bytes the CPU engine allocates for c: the model
// and its derived tables, the gradient, Adam's moments, and per worker a
// chunk workspace and two chunk results. It reports which knob dominates.
func CPUMemory(c Config) (bytes float64, knob string) {
	V, S, d := float64(env.Vocab), float64(env.NumStages), float64(c.Hidden)
	size := V*d + S*d + 2*3*d*d + 2*3*d + V*d + V + d + 1 // the state_dict
	table := V * 3 * d
	derived := table + (V+1)*d + V + 1
	model := 4 * (4*size + table + derived) // params, grad, m, v; dTable; derived
	chunk, workers := c.chunkSize(), float64(c.workers())
	l, err := gru.NewLayout(gru.Config{Vocab: env.Vocab, Hidden: max(1, min(c.Hidden, 4096)), Stages: env.NumStages})
	ws := 0.0
	if err == nil {
		ws = gru.WorkspaceBytes(l, chunk, max(1, c.Steps))
	}
	results := 2 * (4*(size+table) + float64(chunk))
	pool := 8 * float64((c.largestPass()+chunk-1)/chunk)
	bytes = model + workers*(ws+results) + pool
	bytes += 0.03*bytes + 256<<10 // the allocator rounds large buffers up to whole pages
	switch {
	case workers*ws >= model && workers*ws >= workers*results:
		knob = "chunk"
	case workers*results >= model:
		knob = "threads"
	default:
		knob = "hidden"
	}
	return bytes, knob
}

// CheckMemory refuses c when CPUMemory(c) exceeds the memory available.
func CheckMemory(c Config) error {
	need, knob := CPUMemory(c)
	if have := AvailableMemory(); have > 0 && need > have {
		return &ResourceError{Need: need, Have: have, Knob: knob}
	}
	return nil
}

// AvailableMemory is the memory this process may still allocate, in bytes:
// the lesser of the kernel's MemAvailable and the cgroup's limit, or 0 when
// neither can be read (then nothing is refused).
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

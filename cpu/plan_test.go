package cpu

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// span is one slice's backing memory, from the field path that reached it.
type span struct {
	start, end uintptr
	path       string
}

// heldSpans collects the backing memory of every slice reachable from v:
// pointers, structs, arrays and slices are followed; interfaces, channels,
// functions, maps and strings are not (the task and its Env are the task's,
// the pool's channels and locks hold no buffer), nor the configuration and
// the layout (the plan's inputs: the caller's, and shared by the whole
// engine), nor a task.Checker (what it holds is the task's: its levels).
func heldSpans(v reflect.Value, path string, seen map[uintptr]bool, out *[]span) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == reflect.TypeFor[*gru.Layout]() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		heldSpans(v.Elem(), path, seen, out)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[trainer.Config]() || v.Type() == reflect.TypeFor[task.Checker]() {
			return
		}
		for i := 0; i < v.NumField(); i++ {
			heldSpans(v.Field(i), path+"."+v.Type().Field(i).Name, seen, out)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			heldSpans(v.Index(i), path+"[]", seen, out)
		}
	case reflect.Slice:
		if v.Cap() == 0 {
			return
		}
		size := v.Type().Elem().Size()
		*out = append(*out, span{v.Pointer(), v.Pointer() + uintptr(v.Cap())*size, path})
		for i := 0; i < v.Len(); i++ {
			heldSpans(v.Index(i), path+"[]", seen, out)
		}
	}
}

// heldBytes is the bytes of every slice reachable from e's fields, each
// backing array once however many slices share it (a workspace's per-step
// blocks are tails of its whole blocks), and the same by field path.
func heldBytes(e *Engine) (float64, map[string]float64) {
	var spans []span
	heldSpans(reflect.ValueOf(e), "Engine", map[uintptr]bool{}, &spans)
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	total, byPath, end := 0.0, map[string]float64{}, uintptr(0)
	for _, s := range spans {
		if s.end <= end {
			continue // inside a backing array already counted
		}
		n := float64(s.end - max(s.start, end))
		total += n
		byPath[s.path] += n
		end = s.end
	}
	return total, byPath
}

// TestPlanIsWhatNewAllocates: every buffer the engine holds after
// NewWithTask is in its plan, byte for byte (the plan's sum, less the task's
// Env, which the task allocates), for the default recipe of every task (the
// calc task's with observations and read contexts too) and for the knobs
// that size the buffers: hidden width, chunk, threads, batch, the final
// evaluation and the replayed episodes.
func TestPlanIsWhatNewAllocates(t *testing.T) {
	recipe := func(name, spec string, tweak func(*trainer.Config)) trainer.Config {
		c := trainer.DefaultRecipe()
		c.Task, c.TaskSpec = name, spec
		c, err := trainer.WithTask(c)
		require.NoError(t, err)
		if tweak != nil {
			tweak(&c)
		}
		return c
	}
	cases := map[string]trainer.Config{
		"seed":         recipe("seed", "", nil),
		"calc":         recipe("calc", "", nil),
		"calc observe": recipe("calc", "observe=on", nil),
		"calc read":    recipe("calc", "", func(c *trainer.Config) { c.Context = trainer.ContextRead }),
		"expr":         recipe("expr", "", nil),
		"expr replay":  recipe("expr", "", func(c *trainer.Config) { c.Replay = 5000 }),
		"seed threads": recipe("seed", "", func(c *trainer.Config) {
			c.Hidden, c.Batch, c.Chunk, c.Threads, c.FinalEpisodes = 40, 300, 64, 3, 1000
		}),
		"seed big chunk":    recipe("seed", "", func(c *trainer.Config) { c.Chunk, c.Threads = 100000, 16 }),
		"seed ppo":          recipe("seed", "", func(c *trainer.Config) { c.Estimator, c.Threads = trainer.EstimatorPPO, 2 }),
		"countdown3 masked": recipe("countdown3", "", func(c *trainer.Config) { c.Threads = 2 }), // a legal-action mask per worker
	}
	for name, cfg := range cases {
		tk, err := cfg.OpenTask()
		require.NoError(t, err, name)
		p, err := newPlan(cfg, tk)
		require.NoError(t, err, name)
		e, err := NewWithTask(cfg, tk)
		require.NoError(t, err, name)
		held, byPath := heldBytes(e)
		e.Close()
		planned := p.bytes(true).Total()
		require.Positive(t, held, name)
		if held != planned {
			var lines []string
			for path, n := range byPath {
				lines = append(lines, fmt.Sprintf("  %s: %.0f", path, n))
			}
			for _, b := range p.buffers() {
				lines = append(lines, fmt.Sprintf("  plan %s: %.0f×%.0f×%.0f", b.name, b.count, b.size, b.copies))
			}
			sort.Strings(lines)
			t.Errorf("%s: the engine holds %.0f bytes, its plan counts %.0f (%+.0f):\n%s", name, held, planned, planned-held, strings.Join(lines, "\n"))
		}
	}
}

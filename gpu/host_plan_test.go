//go:build cgo

package gpu

import (
	"reflect"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestHostPlanIsEveryHostBuffer: hostPlan, which hostMemory sums, lists
// every host buffer the engine holds once constructed, each field of
// hostBuffers exactly once with the bytes allocateHost gives it; the engine
// holds no host slice outside it (but bufs, the device pointers); and
// hostMemory is the plan's bytes, share by share, plus the trainer's own
// (enginekit.TrainerMemory). No device is needed: the plan is the
// configuration's sizes.
func TestHostPlanIsEveryHostBuffer(t *testing.T) {
	recipe := func(name string, tweak func(*trainer.Config)) trainer.Config {
		c := trainer.DefaultRecipe()
		c.Task = name
		c, err := trainer.WithTask(c)
		require.NoError(t, err)
		tweak(&c)
		return c
	}
	cases := map[string]trainer.Config{
		"seed":        recipe("seed", func(*trainer.Config) {}),
		"calc":        recipe("calc", func(c *trainer.Config) { c.EvalBatch = 3 * c.Batch }),
		"expr replay": recipe("expr", func(c *trainer.Config) { c.Replay, c.Explain = 500, 2000 }),
	}
	for name, cfg := range cases {
		tk, err := cfg.OpenTask()
		require.NoError(t, err, name)
		l, err := enginekit.NewLayout(cfg.Hidden, tk)
		require.NoError(t, err, name)
		e := &engine{cfg: cfg, task: tk, l: l, V: l.Vocab, H: l.Hidden, S: l.Levels, T: cfg.Steps, B: cfg.Batch, maxN: maxEpisodes(cfg)}
		e.allocateHost()

		planned := map[string]float64{}
		shares := enginekit.Memory{}
		for _, b := range hostPlan(cfg, l, &hostBuffers{}) {
			require.NotContainsf(t, planned, b.field, "%s: %s planned twice", name, b.field)
			require.Positivef(t, b.bytes, "%s: %s has no bytes", name, b.field)
			planned[b.field] = b.bytes
			shares[b.knob] += b.bytes
		}
		h := reflect.ValueOf(e.host)
		for i := 0; i < h.NumField(); i++ {
			f, field := h.Field(i), h.Type().Field(i).Name
			require.Equalf(t, reflect.Slice, f.Kind(), "%s: hostBuffers.%s", name, field)
			held := float64(f.Len()) * float64(f.Type().Elem().Size())
			require.Containsf(t, planned, field, "%s: hostBuffers.%s is not in the plan", name, field)
			require.Equalf(t, planned[field], held, "%s: hostBuffers.%s's bytes", name, field)
			delete(planned, field)
		}
		require.Emptyf(t, planned, "%s: planned buffers that are no field of hostBuffers", name)

		v := reflect.ValueOf(e).Elem()
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.Type.Kind() == reflect.Slice && f.Type != reflect.TypeFor[[]devPtr]() {
				t.Errorf("%s: engine.%s is a host slice outside the host plan", name, f.Name)
			}
		}

		want := enginekit.TrainerMemory(runSizes(cfg), tk)
		for k, b := range shares {
			want[k] += b
		}
		require.Equalf(t, want, hostMemory(cfg, tk, l), "%s: the engine's host plan plus the trainer's", name)
	}
}

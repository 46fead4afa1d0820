package trainer

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/simdrl/simdrl/checkpoint"
)

// TestLoadWeightsChecksATrainingState: LoadWeights (-load) refuses a file
// whose training state is present but broken, as Restore does, changing
// nothing; it checks the state against the file's own config, not the run's
// (which may train other levels), and a file with no state at all (weights
// only) loads.
func TestLoadWeightsChecksATrainingState(t *testing.T) {
	cfg := driveConfig()
	src, se := newFakeRun(cfg, func(call, int) float64 { return 0.5 })
	for i := range se.params {
		se.params[i] = float32(i) / 8
	}
	for range 3 {
		_, err := src.Update()
		require.NoError(t, err)
	}
	f, err := src.Checkpoint()
	require.NoError(t, err)
	state := f.Metadata["state"]
	require.Contains(t, state, `"update":3,`)
	edited := func(edit func(m map[string]string)) *checkpoint.File {
		g := *f
		g.Metadata = map[string]string{}
		for k, v := range f.Metadata {
			g.Metadata[k] = v
		}
		edit(g.Metadata)
		return &g
	}
	// The run trains level 0 alone; the file's config all three, unlocked.
	one := cfg
	one.TrainLevels = []int{0}
	for _, c := range []struct {
		file *checkpoint.File
		want string
	}{
		{edited(func(m map[string]string) { m["state"] = "this is not json" }), "checkpoint state: not valid JSON"},
		{edited(func(m map[string]string) { m["state"] = strings.Replace(state, `"update":3,`, `"update":"-5",`, 1) }), "checkpoint state: json: cannot unmarshal string into Go struct field trainState.update of type int"},
		{edited(func(m map[string]string) {
			m["state"] = strings.Replace(strings.Replace(state, `"update":3,`, `"update":-5,`, 1), `"adam_step":3,`, `"adam_step":-5,`, 1)
			m["update"] = "-5"
		}), "checkpoint state: update -5 is negative"},
		{edited(func(m map[string]string) { m["state"] = strings.Replace(state, `"unlocked":`, `"unlocked":9`, 1) }), "checkpoint state: unlocked 9"},
		{edited(func(m map[string]string) { m["update"] = "7" }), `checkpoint metadata update "7" disagrees with the state's update 3`},
		// Without a config to read, the state is checked against the
		// levels its own last evaluation lists.
		{edited(func(m map[string]string) {
			delete(m, "config")
			m["state"] = strings.Replace(state, `"unlocked":`, `"unlocked":9`, 1)
		}), "checkpoint state: unlocked 9"},
	} {
		dst, de := newFakeRun(one, func(call, int) float64 { return 0.5 })
		var loadErr error
		require.NotPanics(t, func() { loadErr = dst.LoadWeights(c.file) })
		require.ErrorContains(t, loadErr, c.want)
		require.Equal(t, make([]float32, len(de.params)), de.params, "a refused file changes nothing")
	}

	unlocked := edited(func(m map[string]string) {
		m["state"] = strings.Replace(strings.Replace(state, `"unlocked":1,`, `"unlocked":3,`, 1), `"unlocked":2,`, `"unlocked":3,`, 1)
	})
	require.Contains(t, unlocked.Metadata["state"], `"unlocked":3,`)
	for _, file := range []*checkpoint.File{f, unlocked, edited(func(m map[string]string) { delete(m, "state") })} {
		dst, de := newFakeRun(one, func(call, int) float64 { return 0.5 })
		require.NoError(t, dst.LoadWeights(file))
		require.Equal(t, se.params, de.params)
	}
}

package cpu

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// tinyConfig is shortConfig with a model small enough to copy freely.
func tinyConfig() trainer.Config {
	c := shortConfig()
	c.Hidden = 4
	return c
}

// edited is a deep copy of f with edit applied to the tensor named name.
func edited(f *checkpoint.File, name string, edit func(data []float32)) *checkpoint.File {
	g := &checkpoint.File{Metadata: map[string]string{}}
	for k, v := range f.Metadata {
		g.Metadata[k] = v
	}
	found := false
	for _, t := range f.Tensors {
		t.Data = slices.Clone(t.Data)
		if t.Name == name {
			edit(t.Data)
			found = true
		}
		g.Tensors = append(g.Tensors, t)
	}
	if !found && name != "" {
		panic("no tensor " + name)
	}
	return g
}

// TestNonFiniteValuesAreRefused: a NaN, +Inf or -Inf anywhere in a
// parameter or in one of Adam's moments is refused, naming the tensor, the
// value and its index, by every path that reads tensors (LoadWeights and
// enginekit.LoadParams for -load, Restore for -resume, on the CPU
// and the GPU alike), and nothing is copied.
func TestNonFiniteValuesAreRefused(t *testing.T) {
	cfg := tinyConfig()
	tr, err := newRun(cfg)
	require.NoError(t, err)
	defer tr.Close()
	f := roundTrip(t, tr)
	values := []struct {
		x    float32
		name string
	}{
		{float32(math.NaN()), "NaN"},
		{math.Float32frombits(0x7f800001), "NaN"}, // a signalling NaN with a payload
		{float32(math.Inf(1)), "+Inf"},
		{float32(math.Inf(-1)), "-Inf"},
	}
	for _, v := range values {
		for _, c := range []struct {
			tensor string
			index  int
		}{
			{"rnn.weight_hh_l0", 17},
			{"emb.weight", 0},
			{"v.bias", 0},
			// -load takes no moment, but refuses a file with a bad one
			// (docs/cli.md: any tensor), as -resume does.
			{"optimizer.exp_avg." + "pi.weight", 5},
			{"optimizer.exp_avg_sq." + "rnn.bias_ih_l0", 11},
		} {
			bad := edited(f, c.tensor, func(d []float32) { d[c.index] = v.x })
			want := "checkpoint tensor " + c.tensor + " holds a non-finite value (" + v.name + " at index " + itoa(c.index) + ")"

			_, err := resume(bad, cfg)
			require.EqualError(t, err, want)

			l := tr.layout
			params := make([]float32, l.Size)
			other, err := newRun(func() trainer.Config { c := cfg; c.Seed = 7; return c }())
			require.NoError(t, err)
			before, state := slices.Clone(other.Params()), roundTrip(t, other)
			require.EqualError(t, other.Restore(bad), want)
			require.Equal(t, state, roundTrip(t, other), "a refused checkpoint changes nothing")
			err = other.LoadWeights(bad)
			require.EqualError(t, err, want)
			require.Equal(t, before, other.Params(), "a refused checkpoint changes nothing")
			require.EqualError(t, enginekit.LoadParams(bad, l, params), want)
			require.Equal(t, make([]float32, l.Size), params)
			other.Close()
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestNegativeSecondMomentIsRefused: Adam's second moment is a running mean
// of squares; a negative value (not -0) is corruption. The first moment may
// be negative.
func TestNegativeSecondMomentIsRefused(t *testing.T) {
	cfg := tinyConfig()
	tr, err := newRun(cfg)
	require.NoError(t, err)
	defer tr.Close()
	f := roundTrip(t, tr)

	bad := edited(f, "optimizer.exp_avg_sq."+"pi.bias", func(d []float32) { d[3] = -0.25 })
	_, err = resume(bad, cfg)
	require.EqualError(t, err, "checkpoint tensor optimizer.exp_avg_sq.pi.bias holds a negative value (-0.25 at index 3); Adam's second moment is never negative")

	ok := edited(f, "optimizer.exp_avg_sq."+"pi.bias", func(d []float32) { d[3] = float32(math.Copysign(0, -1)) })
	ok = edited(ok, "optimizer.exp_avg."+"pi.bias", func(d []float32) { d[3] = -0.25 })
	r, err := resume(ok, cfg)
	require.NoError(t, err)
	r.Close()
}

// withState is f with its state JSON edited as a map.
func withState(t *testing.T, f *checkpoint.File, edit func(st map[string]any)) *checkpoint.File {
	g := edited(f, "", nil)
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(f.Metadata["state"]), &st))
	edit(st)
	b, err := json.Marshal(st)
	require.NoError(t, err)
	g.Metadata["state"] = string(b)
	return g
}

// TestStateErrorsNameTheField: a training state out of range, incomplete,
// with unknown or duplicate fields, or contradicting the metadata is refused
// with one line naming the field and its value (not a Go struct).
func TestStateErrorsNameTheField(t *testing.T) {
	cfg := tinyConfig()
	tr, err := newRun(cfg)
	require.NoError(t, err)
	defer tr.Close()
	f := roundTrip(t, tr)
	set := func(k string, v any) func(map[string]any) { return func(st map[string]any) { st[k] = v } }
	for _, c := range []struct {
		f    *checkpoint.File
		want string
	}{
		{withState(t, f, set("unlocked", 7)), "checkpoint state: unlocked 7 is out of range 1..3"},
		{withState(t, f, set("unlocked", 0)), "checkpoint state: unlocked 0 is out of range 1..3"},
		{withState(t, f, set("update", -1)), "checkpoint state: update -1 is negative"},
		{withState(t, f, set("adam_step", -2)), "checkpoint state: adam_step -2 is negative"},
		{withState(t, f, set("solved_streak", -1)), "checkpoint state: solved_streak -1 is negative"},
		{withState(t, f, set("last_solve_rate", []float64{0, 1.5, 0})), "checkpoint state: last_solve_rate[1] 1.5 is out of range 0..1"},
		{withState(t, f, set("last_solve_rate", []float64{-0.5, 0, 0})), "checkpoint state: last_solve_rate[0] -0.5 is out of range 0..1"},
		{withState(t, f, set("last_episodes", []int{0, 0, -4})), "checkpoint state: last_episodes[2] -4 is negative"},
		{withState(t, f, set("last_episodes", []int{0, 0})), "checkpoint state: the last evaluation has 3, 3 and 2 entries, want 3 (one per level)"},
		{withState(t, f, set("last_mean_reward", []float64{0, 0, 0, 0})), "checkpoint state: the last evaluation has 3, 4 and 3 entries, want 3 (one per level)"},
		{withState(t, f, set("update", "3")), "checkpoint state: json: cannot unmarshal string into Go struct field trainState.update of type int"},
		{withState(t, f, set("update", 2.5)), "checkpoint state: json: cannot unmarshal number 2.5 into Go struct field trainState.update of type int"},
		{withState(t, f, func(st map[string]any) { delete(st, "update") }), "checkpoint state: no field update"},
		{withState(t, f, set("Update", 3)), `checkpoint state: unknown field "Update"`},
		{withState(t, f, set("rng", "x")), `checkpoint state: unknown field "rng"`},
		{func() *checkpoint.File {
			g := edited(f, "", nil)
			g.Metadata["state"] = `{"update":0,"update":0}`
			return g
		}(),
			"checkpoint state: duplicate field update"},
		{func() *checkpoint.File { g := edited(f, "", nil); g.Metadata["state"] = `{"update":0,`; return g }(),
			"checkpoint state: not valid JSON: unexpected EOF"},
		{func() *checkpoint.File { g := edited(f, "", nil); g.Metadata["state"] = `[0]`; return g }(),
			"checkpoint state: not a JSON object"},
		{func() *checkpoint.File { g := edited(f, "", nil); g.Metadata["state"] = ""; return g }(),
			"checkpoint state: empty, not a JSON object"},
		{func() *checkpoint.File { g := edited(f, "", nil); delete(g.Metadata, "state"); return g }(),
			`checkpoint has no training state (metadata key "state")`},
		{func() *checkpoint.File { g := edited(f, "", nil); g.Metadata["update"] = "7"; return g }(),
			`checkpoint metadata update "7" disagrees with the state's update 0`},
		{func() *checkpoint.File {
			g := edited(f, "", nil)
			g.Tensors = append(g.Tensors, checkpoint.Tensor{Name: "rnn.weight_hh_l1", Shape: []int{1}, Data: []float32{0}})
			return g
		}(), `checkpoint has an unexpected tensor "rnn.weight_hh_l1" (neither a parameter of this model nor an Adam moment of one)`},
	} {
		_, err := resume(c.f, cfg)
		require.EqualError(t, err, c.want)
		require.NotContains(t, err.Error(), "\n")
	}
	// -load takes the weights: other tensors are not its business, but a
	// broken training state is a damaged file, as under -resume.
	other, err := newRun(cfg)
	require.NoError(t, err)
	defer other.Close()
	require.EqualError(t, other.LoadWeights(withState(t, f, set("unlocked", 7))), "checkpoint state: unlocked 7 is out of range 1..3")
	g := edited(f, "", nil)
	g.Tensors = append(g.Tensors, checkpoint.Tensor{Name: "rnn.weight_hh_l1", Shape: []int{1}, Data: []float32{0}})
	require.NoError(t, other.LoadWeights(g))
}

// withConfig is f with its config JSON replaced.
func withConfig(f *checkpoint.File, raw string) *checkpoint.File {
	g := edited(f, "", nil)
	g.Metadata["config"] = raw
	return g
}

// TestCheckpointConfigIsStrict: the config in a checkpoint is validated as a
// command line is (Validate, the recipe's name), and must name every field
// exactly once and nothing else.
func TestCheckpointConfigIsStrict(t *testing.T) {
	cfg := tinyConfig()
	tr, err := newRun(cfg)
	require.NoError(t, err)
	defer tr.Close()
	f := roundTrip(t, tr)
	got, err := trainer.CheckpointConfig(f)
	require.NoError(t, err)
	require.Equal(t, cfg, got)

	raw := f.Metadata["config"]
	edit := func(edit func(m map[string]any)) string {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(raw), &m))
		edit(m)
		b, err := json.Marshal(m)
		require.NoError(t, err)
		return string(b)
	}
	set := func(k string, v any) string { return edit(func(m map[string]any) { m[k] = v }) }
	for _, c := range []struct {
		config string
		want   string
	}{
		{set("hidden", 0), "checkpoint config: hidden must be in 1..4096, got 0"},
		{set("batch", -1), "checkpoint config: batch must be in 1..16777216, got -1"},
		{set("stages", []int{}), "checkpoint config: stages must list at least one level"},
		{set("stages", nil), "checkpoint config: stages must list at least one level"},
		{set("curriculum", "spiral"), `checkpoint config: curriculum must be blocks or mixed, got "spiral"`},
		{set("recipe", "fast"), `checkpoint config: unknown recipe "fast" (want seed or default)`},
		{set("hiddne", 8), `checkpoint config: unknown field "hiddne"`},
		{set("HIDDEN", 8), `checkpoint config: unknown field "HIDDEN"`},
		{edit(func(m map[string]any) { delete(m, "entropy_final") }), "checkpoint config: no field entropy_final"},
		{edit(func(m map[string]any) { delete(m, "chunk") }), "checkpoint config: no field chunk"},
		{set("seed", -1), "checkpoint config: json: cannot unmarshal number -1 into Go struct field Config.seed of type uint64"},
		{strings.Replace(raw, `{`, `{"hidden":4,`, 1), "checkpoint config: duplicate field hidden"},
		{raw[:strings.Index(raw, `"eval_every"`)+4], "checkpoint config: not valid JSON: unexpected EOF"}, // cut inside a key
		{raw + "x", "checkpoint config: not valid JSON: data after the object"},
		{"null", "checkpoint config: not a JSON object"},
		{"", "checkpoint config: empty, not a JSON object"},
	} {
		_, err := trainer.CheckpointConfig(withConfig(f, c.config))
		require.EqualError(t, err, c.want, c.config)
	}
	g := edited(f, "", nil)
	delete(g.Metadata, "config")
	_, err = trainer.CheckpointConfig(g)
	require.EqualError(t, err, `checkpoint has no config (metadata key "config")`)
}

// TestLoadTakesAWeightsOnlyFile: -load checks Adam's moments when a file has
// them, and loads a file that has none (a PyTorch state_dict saved as
// safetensors).
func TestLoadTakesAWeightsOnlyFile(t *testing.T) {
	cfg := tinyConfig()
	tr, err := newRun(cfg)
	require.NoError(t, err)
	defer tr.Close()
	f := roundTrip(t, tr)
	weights := &checkpoint.File{Metadata: f.Metadata}
	for _, tn := range f.Tensors {
		if !strings.HasPrefix(tn.Name, "optimizer.") {
			weights.Tensors = append(weights.Tensors, tn)
		}
	}
	require.Less(t, len(weights.Tensors), len(f.Tensors))
	other, err := newRun(func() trainer.Config { c := cfg; c.Seed = 7; return c }())
	require.NoError(t, err)
	defer other.Close()
	require.NoError(t, other.LoadWeights(weights))
	require.Equal(t, tr.Params(), other.Params())
}

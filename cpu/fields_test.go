package cpu

import (
	"io"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// fieldEcho is echo (echo_test.go) written as a Fielded step function: its
// first field is echo's observation. With wide unset it declares that one
// field alone, and must train exactly as echo does; wide adds a field (the
// step count) and a vector of two numbers (the first field scaled, and 1).
// bad writes a value outside the first field after PROBE.
type fieldEcho struct{ wide, bad bool }

func (fieldEcho) Name() string                   { return "fieldecho" }
func (fieldEcho) Vocab() int                     { return echoVocab }
func (fieldEcho) ContextEnd() int32              { return echoEnd }
func (fieldEcho) NotActions() []int32            { return []int32{echoEnd} }
func (fieldEcho) Answer() int32                  { return -1 }
func (fieldEcho) HoldsOut() bool                 { return false }
func (fieldEcho) Levels() []task.Level           { return []task.Level{echoLevel} }
func (fieldEcho) TokenName(tok int32) string     { return echo{}.TokenName(tok) }
func (fieldEcho) ObservationName(o int32) string { return echo{}.ObservationName(o) }
func (fieldEcho) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, s task.Split) task.Instance {
	return echo{}.Draw(key, round, episode, purpose, lv, s)
}

func (t fieldEcho) Fields() task.FieldSpec {
	if t.wide {
		return task.FieldSpec{Sizes: []int{3, 3}, Vector: 2}
	}
	return task.FieldSpec{Sizes: []int{3}}
}

func (t fieldEcho) NewGame() task.Game { return &fieldEchoGame{t: t} }

type fieldEchoGame struct {
	t        fieldEcho
	hidden   int64
	obs      int32
	steps    int32
	program  [2]int32
	answered bool
}

func (g *fieldEchoGame) Reset(in *task.Instance) int32 {
	g.hidden, g.obs, g.steps, g.answered = in.Data[0], in.Context[0], 0, false
	return task.NoObservation
}

func (g *fieldEchoGame) Step(tok int32) (int32, float64, bool) {
	g.program[g.steps] = tok
	g.steps++
	g.obs = 0
	if g.steps == 1 {
		if tok == echoProbe {
			g.obs = 1 + int32(g.hidden)
			if g.t.bad {
				g.obs = 3
			}
		}
		return task.NoObservation, 0, false
	}
	g.answered = g.program[0] == echoProbe && int64(g.program[1]) == g.hidden
	if g.answered {
		return task.NoObservation, 1, true
	}
	return task.NoObservation, 0, true
}

func (g *fieldEchoGame) Correct() bool { return g.answered }

func (g *fieldEchoGame) WriteFields(fields []int32, vector []float32) {
	fields[0] = g.obs
	if g.t.wide {
		fields[1] = g.steps
		vector[0], vector[1] = 0.5*float32(g.obs), 1
	}
}

// TestOneFieldIsTheObservationModel: a task declaring one field of 3
// values trains exactly as echo, the Observer of the same 3 observations:
// the same parameters bit for bit after a few updates.
func TestOneFieldIsTheObservationModel(t *testing.T) {
	cfg := fieldConfig()
	cfg.Updates = 5
	var hashes []string
	for _, tk := range []task.Task{echo{}, fieldEcho{}} {
		cfg.Task = tk.Name()
		r := newTaskRun(t, cfg, tk)
		for range cfg.Updates {
			_, err := r.Update()
			require.NoError(t, err)
		}
		hashes = append(hashes, hash(t, r))
	}
	require.Equal(t, hashes[0], hashes[1])
}

// TestFieldsLearnEcho: with two fields and a vector the policy learns echo
// (the hidden bit is seen only through the first field) to a final greedy
// solve rate of at least 0.99.
func TestFieldsLearnEcho(t *testing.T) {
	r := newTaskRun(t, fieldConfig(), fieldEcho{wide: true})
	rep, err := trainer.Drive(r.tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	require.GreaterOrEqual(t, rep.Final.SolveRate[0], 0.99)
}

// TestFieldsUpdateAllocatesNothing: an update of a task with fields and a
// vector allocates nothing once the engine is built.
func TestFieldsUpdateAllocatesNothing(t *testing.T) {
	cfg := fieldConfig()
	cfg.Threads, cfg.Batch, cfg.Chunk = 2, 64, 16
	r := newTaskRun(t, cfg, fieldEcho{wide: true})
	u := 0
	update := func() {
		u++
		_, err := r.Engine.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.1})
		require.NoError(t, err)
	}
	update()
	require.Zero(t, testing.AllocsPerRun(20, update))
}

// TestFieldsRunIsThreadIndependent: the same seed gives the same parameters
// on 1 and 2 threads with fields and a vector, taking the context as a bag
// or reading it.
func TestFieldsRunIsThreadIndependent(t *testing.T) {
	for _, context := range []string{trainer.ContextBag, trainer.ContextRead} {
		var hashes []string
		for _, threads := range []int{1, 2} {
			cfg := fieldConfig()
			cfg.Threads, cfg.Updates, cfg.Batch, cfg.Chunk, cfg.Context = threads, 5, 96, 20, context
			r := newTaskRun(t, cfg, fieldEcho{wide: true})
			for range cfg.Updates {
				_, err := r.Update()
				require.NoError(t, err)
			}
			hashes = append(hashes, hash(t, r))
		}
		require.Equalf(t, hashes[0], hashes[1], "context %s", context)
	}
}

// TestFieldsCheckpointResumes: a checkpoint of a model with fields holds
// their embeddings, the vector's layer and their moments, and resumes
// bit-identically to the run never stopped.
func TestFieldsCheckpointResumes(t *testing.T) {
	cfg := fieldConfig()
	cfg.Updates = 6
	full := newTaskRun(t, cfg, fieldEcho{wide: true})
	init := append([]float32(nil), full.layout.FieldEmb.View(full.Params())...)
	for range 3 {
		_, err := full.Update()
		require.NoError(t, err)
	}
	f := roundTrip(t, full)
	for name, shape := range map[string][]int{"field_emb.0.weight": {3, cfg.Hidden}, "field_emb.1.weight": {3, cfg.Hidden},
		"vec.weight": {cfg.Hidden, 2}, "optimizer.exp_avg_sq.vec.bias": {cfg.Hidden}} {
		ct, ok := f.Lookup(name)
		require.Truef(t, ok, "%s saved", name)
		require.Equal(t, shape, ct.Shape)
	}
	for range 3 {
		_, err := full.Update()
		require.NoError(t, err)
	}
	require.NotEqual(t, init, full.layout.FieldEmb.View(full.Params()), "the fields' embeddings are trained")

	resumed := newTaskRun(t, cfg, fieldEcho{wide: true})
	require.NoError(t, resumed.Restore(f))
	for range 3 {
		_, err := resumed.Update()
		require.NoError(t, err)
	}
	require.Equal(t, hash(t, full), hash(t, resumed))

	for _, other := range []*testRun{newTaskRun(t, echoConfig(), echo{}), newTaskRun(t, cfg, fieldEcho{})} {
		require.Error(t, other.Restore(f), "another model: refused, no panic")
	}
}

// TestFieldOutsideItsFieldRefused: a game writing a value outside its
// field is the task's error, one line naming the field, not a panic.
func TestFieldOutsideItsFieldRefused(t *testing.T) {
	for _, wide := range []bool{false, true} {
		r := newTaskRun(t, fieldConfig(), fieldEcho{wide: wide, bad: true})
		var err error
		for u := 0; u < 3 && err == nil; u++ {
			_, err = r.Update()
		}
		require.ErrorContainsf(t, err, "field 0 is 3, outside 0..2", "wide=%v", wide)
	}
}

// fieldConfig is echoConfig for fieldEcho.
func fieldConfig() trainer.Config {
	cfg := echoConfig()
	cfg.Task = fieldEcho{}.Name()
	return cfg
}

// fieldedEcho is echo (a task.Stepper) declaring fields.
type fieldedEcho struct{ echo }

func (fieldedEcho) Fields() task.FieldSpec { return task.FieldSpec{Sizes: []int{3, 2}} }

// TestFieldsContractRefused: a task that is an Observer and Fielded at
// once, or whose own Env does not write its fields (task.FieldEnv), is
// refused when the engine is built, in one line.
func TestFieldsContractRefused(t *testing.T) {
	for _, c := range []struct {
		tk   task.Task
		want string
	}{
		{fieldedEcho{echo{}}, "declares both an observation vocabulary (task.Observer) and fields (task.Fielded)"},
		{fieldedEcho{echo{obs: -1}}, "declares fields (task.Fielded), but its Env does not write them (task.FieldEnv)"},
	} {
		_, err := NewWithTask(echoConfig(), c.tk)
		require.ErrorContains(t, err, c.want)
		require.NotContains(t, err.Error(), "\n")
	}
}

package cpu

import (
	"io"
	"testing"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// newTaskRun builds a CPU engine of cfg for the task value tk and its
// Trainer.
func newTaskRun(t testing.TB, cfg trainer.Config, tk task.Task) *testRun {
	e, err := NewWithTask(cfg, tk)
	require.NoError(t, err)
	tr, err := trainer.New(cfg, tk, e)
	require.NoError(t, err)
	t.Cleanup(e.Close)
	return &testRun{e, tr}
}

// TestEchoLearnsFromObservations: the echo task is solved only by reading
// the observation PROBE returns; the CPU engine learns it to a final greedy
// solve rate of at least 0.99, and the same task with its observations
// zeroed (blind) stays at chance, 0.5 within 0.1 over the final 1000
// episodes.
func TestEchoLearnsFromObservations(t *testing.T) {
	for _, c := range []struct {
		blind    bool
		min, max float64
	}{{false, 0.99, 1}, {true, 0.4, 0.6}} {
		r := newTaskRun(t, echoConfig(), echo{blind: c.blind})
		rep, err := trainer.Drive(r.tr, io.Discard, trainer.Options{Quiet: true})
		require.NoError(t, err)
		t.Logf("blind=%v: solved %v after %d updates", c.blind, rep.Final.SolveRate, rep.Updates)
		require.GreaterOrEqualf(t, rep.Final.SolveRate[0], c.min, "blind=%v", c.blind)
		require.LessOrEqualf(t, rep.Final.SolveRate[0], c.max, "blind=%v", c.blind)
		if c.blind {
			continue
		}
		// The greedy programs (explanations' path) read the observations too:
		// PROBE, then the hidden bit it revealed.
		tasks := make([]task.Instance, 16)
		for i := range tasks {
			tasks[i] = echo{}.Draw(rng.NewKey(99), 1, uint32(i), rng.PurposeTask, 0, task.Training)
		}
		progs := programs(t, r, tasks)
		for i := range tasks {
			require.Equalf(t, []int32{echoProbe, int32(tasks[i].Data[0])}, progs[2*i:2*i+2], "instance %d", i)
		}
	}
}

// TestObservingUpdateAllocatesNothing: an update of a task with
// observations allocates nothing once the engine is built.
func TestObservingUpdateAllocatesNothing(t *testing.T) {
	cfg := echoConfig()
	cfg.Threads, cfg.Batch, cfg.Chunk = 2, 64, 16
	r := newTaskRun(t, cfg, echo{})
	u := 0
	update := func() {
		u++
		_, err := r.Engine.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.1})
		require.NoError(t, err)
	}
	update()
	require.Zero(t, testing.AllocsPerRun(20, update))
}

// TestRolloutInputsCarryObservations: every input of a sampled rollout is
// action·O + the observation the Env returned after it, the first the
// context end·O + Reset's observation, against observations computed from
// the task's rules here (not read back from the Env's buffers).
func TestRolloutInputsCarryObservations(t *testing.T) {
	tk := echo{}
	const O = 3
	r := newTaskRun(t, echoConfig(), tk)
	require.Equal(t, O, r.layout.Observations)
	require.Equal(t, echoVocab*O, r.layout.InputRows())
	w := r.pool.workers[0]
	n := w.ws.Cap
	w.ws.Reset(n)
	for b := 0; b < n; b++ {
		w.tasks[b] = tk.Draw(r.key, 7, uint32(b), rng.PurposeTask, 0, task.Training)
		w.setContext(b, &w.tasks[b])
	}
	w.rollout(r.model, gru.Sample, gru.Stream{Key: r.key, Round: 7}, false)
	probes := 0
	for b := 0; b < n; b++ {
		in := &w.tasks[b]
		require.Equal(t, echoEnd*O+in.Context[0], w.ws.Inputs(0)[b], "row %d's first input", b)
		a := w.ws.Action(b, 0)
		obs := int32(0)
		if a == echoProbe {
			obs = 1 + int32(in.Data[0])
			probes++
		}
		require.Equal(t, a*O+obs, w.ws.Inputs(1)[b], "row %d's second input", b)
	}
	require.Positive(t, probes, "some rows probed")
	require.Less(t, probes, n, "some rows did not")
}

// TestObservingRunIsThreadIndependent: the same seed gives the same
// parameters on 1 and 2 threads with observations.
func TestObservingRunIsThreadIndependent(t *testing.T) {
	var hashes []string
	for _, threads := range []int{1, 2} {
		cfg := echoConfig()
		cfg.Threads, cfg.Updates, cfg.Batch, cfg.Chunk = threads, 5, 96, 20
		r := newTaskRun(t, cfg, echo{})
		for range cfg.Updates {
			_, err := r.Update()
			require.NoError(t, err)
		}
		hashes = append(hashes, hash(t, r))
	}
	require.Equal(t, hashes[0], hashes[1])
}

// TestObservingCheckpointResumes: a checkpoint of a model with observations
// holds obs_emb.weight and its moments, and resumes bit-identically to the
// run never stopped; obs_emb is trained (it moves from its initial values).
func TestObservingCheckpointResumes(t *testing.T) {
	cfg := echoConfig()
	cfg.Updates = 6
	full := newTaskRun(t, cfg, echo{})
	init := append([]float32(nil), full.layout.ObsEmb.View(full.Params())...)
	for range 3 {
		_, err := full.Update()
		require.NoError(t, err)
	}
	f := roundTrip(t, full) // the snapshot's tensors are views of the engine's buffers
	for _, name := range []string{"obs_emb.weight", "optimizer.exp_avg.obs_emb.weight", "optimizer.exp_avg_sq.obs_emb.weight"} {
		ct, ok := f.Lookup(name)
		require.Truef(t, ok, "%s saved", name)
		require.Equal(t, []int{3, cfg.Hidden}, ct.Shape)
	}
	for range 3 {
		_, err := full.Update()
		require.NoError(t, err)
	}
	require.NotEqual(t, init, full.layout.ObsEmb.View(full.Params()), "obs_emb is trained")

	resumed := newTaskRun(t, cfg, echo{})
	require.NoError(t, resumed.Restore(f))
	require.Equal(t, 3, resumed.Updates())
	for range 3 {
		_, err := resumed.Update()
		require.NoError(t, err)
	}
	require.Equal(t, hash(t, full), hash(t, resumed))
}

// TestObservationMismatchRefused: a checkpoint of a model with 3
// observations does not resume or load into one with 4 or none, nor one
// without observations into one with; each is one error, no panic.
func TestObservationMismatchRefused(t *testing.T) {
	cfg := echoConfig()
	f := snapshot(t, newTaskRun(t, cfg, echo{}))
	open := snapshot(t, newTaskRun(t, cfg, echo{obs: -1}))
	for _, c := range []struct {
		into echo
		file string
		err  string
	}{
		{echo{obs: 4}, "obs3", "checkpoint tensor obs_emb.weight has shape [3 32], this model needs [4 32]"},
		{echo{obs: -1}, "obs3", `checkpoint has a tensor "obs_emb.weight" that this model lacks: its model observes 3 tokens, this task's model observes nothing`},
		{echo{}, "open", "checkpoint has no tensor obs_emb.weight: its model observes nothing, this task's model observes 3 tokens"},
	} {
		file := f
		if c.file == "open" {
			file = open
		}
		r := newTaskRun(t, cfg, c.into)
		var err error
		require.NotPanics(t, func() { err = r.LoadWeights(file) })
		require.EqualError(t, err, c.err)
		require.NotPanics(t, func() { err = r.Restore(file) })
		require.EqualError(t, err, c.err)
	}
}

// TestEnvObservationsDisagreeRefused: a task whose Env observes another
// number of tokens than the task declares is refused when the engine is
// built.
func TestEnvObservationsDisagreeRefused(t *testing.T) {
	_, err := NewWithTask(echoConfig(), echo{envObs: 5})
	require.EqualError(t, err, "task echo: its Env observes 5 tokens, the task declares 3 (task.Observer)")
}

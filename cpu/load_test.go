package cpu

import (
	"testing"

	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/tasks/seedtask"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// FixedTasks are episodes of every level drawn from a key of their own, so
// models initialised from any -seed are compared on the same tasks.
func fixedTasks(n int) []task.Instance {
	key := rng.NewKey(0x5eed_cafe)
	tasks := make([]task.Instance, n)
	for i := range tasks {
		tasks[i] = seedtask.FromEnv(seed.DrawTask(key, 1, uint32(i), rng.PurposeTask, i%seed.NumLevels))
	}
	return tasks
}

// requireDerivedFresh fails when the trainer's derived state (the token
// table, the packed heads) is not what its parameters give now.
func requireDerivedFresh(t *testing.T, tr *testRun, when string) {
	t.Helper()
	want := gru.NewDerived(tr.layout)
	want.Compute(tr.layout, tr.model.params)
	require.Equalf(t, want.Table, tr.model.derived.Table, "%s: token table stale", when)
	require.Equalf(t, want.HeadsW, tr.model.derived.HeadsW, "%s: heads stale", when)
	require.Equalf(t, want.HeadsBias, tr.model.derived.HeadsBias, "%s: head biases stale", when)
}

// TestLoadedModelActsAsSaved: a model saved by a run of one -seed and loaded
// by runs of other seeds plays the same greedy programs on the same tasks,
// before and after training on (once, -load kept the token table of the
// loading seed's initialisation).
func TestLoadedModelActsAsSaved(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Updates, cfg.EvalEvery, cfg.FinalEpisodes, cfg.Explain, cfg.Chunk, cfg.Threads = 64, 40, 0, 0, 0, 32, 2
	cfg.Seed = 2
	saver, err := newRun(cfg)
	require.NoError(t, err)
	defer saver.Close()
	requireDerivedFresh(t, saver, "after New")
	for i := 0; i < cfg.Updates; i++ {
		_, err := saver.Update()
		require.NoError(t, err)
	}
	requireDerivedFresh(t, saver, "after updates")
	f := snapshot(t, saver)
	tasks := fixedTasks(300)
	want := programs(t, saver, tasks)

	for _, seed := range []uint64{0, 2, 9} {
		c := cfg
		c.Seed = seed
		fresh, err := newRun(c)
		require.NoError(t, err)
		if seed != cfg.Seed {
			require.NotEqual(t, want, programs(t, fresh, tasks), "seed %d: an untrained model plays like the saved one; the test could not fail", seed)
		}
		require.NoError(t, fresh.LoadWeights(f))
		requireDerivedFresh(t, fresh, "after LoadWeights")
		require.Equal(t, hash(t, saver), hash(t, fresh))
		require.Equalf(t, want, programs(t, fresh, tasks), "-load with -seed %d", seed)
		_, err = fresh.Update()
		require.NoError(t, err)
		requireDerivedFresh(t, fresh, "after an update from loaded weights")
		fresh.Close()

		resumed, err := resume(f, c)
		require.NoError(t, err)
		requireDerivedFresh(t, resumed, "after Resume")
		require.Equalf(t, want, programs(t, resumed, tasks), "-resume with -seed %d", seed)
		resumed.Close()
	}
}

// TestGreedyProgramsRefusesBadInstances: an instance outside the task's
// tables is an error, not a panic in the model.
func TestGreedyProgramsRefusesBadInstances(t *testing.T) {
	cfg := trainer.DefaultRecipe()
	cfg.Batch, cfg.Threads = 16, 1
	e, err := newRun(cfg)
	require.NoError(t, err)
	defer e.Close()
	in := e.task.Draw(rng.NewKey(1), 1, 0, rng.PurposeTask, 0, task.HeldOut)
	_, err = e.GreedyPrograms([]task.Instance{in})
	require.NoError(t, err)
	in.Level = 3
	_, err = e.GreedyPrograms([]task.Instance{in})
	require.ErrorContains(t, err, "levels 0..2")
}

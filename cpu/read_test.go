package cpu

import (
	"bytes"
	"math"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// readConfig is a short calc run of a reading policy on two levels of
// different context lengths (two variables, four), so that chunks mix them,
// and branching levels whose inputs carry observations when observe is set.
func readConfig(t *testing.T, levels string) trainer.Config {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = "calc", "levels="+levels
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
	c.Context = trainer.ContextRead
	c.Updates, c.Batch, c.Chunk, c.EvalEvery, c.EvalBatch, c.FinalEpisodes, c.Explain = 6, 48, 16, 3, 20, 30, 0
	return c
}

// TestReadDiffersFromBagAndIgnoresThreads: a reading run is another run
// than the bag's, and the same for any -threads.
func TestReadDiffersFromBagAndIgnoresThreads(t *testing.T) {
	for _, levels := range []string{"a*b, a*b+c*d", "abs(a-b), max(a,b)+c"} {
		c := readConfig(t, levels)
		var hashes []string
		for _, threads := range []int{1, 3} {
			c.Threads = threads
			rep, err := run(t, c, &bytes.Buffer{})
			require.NoError(t, err)
			hashes = append(hashes, rep.ParamSHA256)
		}
		require.Equal(t, hashes[0], hashes[1], levels)
		bag := c
		bag.Context = ""
		rep, err := run(t, bag, &bytes.Buffer{})
		require.NoError(t, err)
		require.NotEqual(t, hashes[0], rep.ParamSHA256, levels)
	}
}

// TestReadUpdateAllocatesNothing: the reading steps keep the steady-state
// update and the evaluation free of allocations, with and without
// observations.
func TestReadUpdateAllocatesNothing(t *testing.T) {
	for _, levels := range []string{"a*b, a*b+c*d", "abs(a-b), max(a,b)+c"} {
		tr, err := newRun(readConfig(t, levels))
		require.NoError(t, err)
		_, err = tr.Update()
		require.NoError(t, err)
		require.Zerof(t, testing.AllocsPerRun(3, func() {
			_, err := tr.Update()
			require.NoError(t, err)
		}), "%s: the steady-state update allocates", levels)
		require.Zero(t, testing.AllocsPerRun(3, func() { tr.evaluate(1, 30, 7, 0) }), "%s: evaluation allocates", levels)
		tr.Close()
	}
}

// TestReadResumeIsBitIdentical: a reading run's config round-trips through
// its checkpoint (context "read"), and resuming it equals the run never
// stopped.
func TestReadResumeIsBitIdentical(t *testing.T) {
	c := readConfig(t, "abs(a-b), max(a,b)+c")
	full, err := newRun(c)
	require.NoError(t, err)
	defer full.Close()
	for range 3 {
		_, err := full.Update()
		require.NoError(t, err)
	}
	f := roundTrip(t, full)
	got, err := trainer.CheckpointConfig(f)
	require.NoError(t, err)
	require.Equal(t, c, got)
	require.Equal(t, trainer.ContextRead, got.Context)
	for range 3 {
		_, err := full.Update()
		require.NoError(t, err)
	}
	got.Threads = 2
	resumed, err := resume(f, got)
	require.NoError(t, err)
	defer resumed.Close()
	for range 3 {
		_, err := resumed.Update()
		require.NoError(t, err)
	}
	require.Equal(t, hash(t, full), hash(t, resumed))
}

// TestLoadAcrossContexts: a bag model's weights load into a reading run and
// the reverse (the tensors are the same; -load takes weights, and the run's
// own -context decides how they are used), and give other programs.
func TestLoadAcrossContexts(t *testing.T) {
	read := readConfig(t, "a*b, a*b+c*d")
	bag := read
	bag.Context = ""
	for _, c := range [][2]trainer.Config{{bag, read}, {read, bag}} {
		from, err := newRun(c[0])
		require.NoError(t, err)
		for range 2 {
			_, err := from.Update()
			require.NoError(t, err)
		}
		var f *checkpoint.File = roundTrip(t, from)
		into, err := newRun(c[1])
		require.NoError(t, err)
		require.NoError(t, into.LoadWeights(f))
		require.Equal(t, hash(t, from), hash(t, into))
		require.Equal(t, c[1].Context, into.cfg.Context, "the run keeps its own context")
		from.Close()
		into.Close()
	}
}

// TestReadTapeOfEverySize: the tape task's head=context with its default
// longer sizes reads contexts up to its 32-leaf expressions: the layout
// reads the task's longest context, an update trains, and the greedy
// programs of the longest level's instances are played and scored.
func TestReadTapeOfEverySize(t *testing.T) {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = "tape", "partial_credit=0.3; head=context"
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
	require.Equal(t, trainer.ContextRead, c.Context)
	c.Hidden, c.Batch, c.Chunk, c.EvalEvery, c.FinalEpisodes, c.Explain = 16, 8, 8, 0, 0, 0
	r, err := newRun(c)
	require.NoError(t, err)
	defer r.Close()
	levels := r.task.Levels()
	last := len(levels) - 1
	require.Equal(t, levels[last].Context, r.layout.Shown, "the longest level's context")
	_, err = r.Update()
	require.NoError(t, err)
	ins := make([]task.Instance, 4)
	for i := range ins {
		ins[i] = r.task.Draw(rng.NewKey(3), 0, uint32(i), rng.PurposeEval, last, task.Transfer)
		require.Greater(t, int(ins[i].NContext), levels[last-1].Context, "longer than any shorter level's")
	}
	progs := programs(t, r, ins)
	for i := range ins {
		out := task.Score(r.task, &ins[i], progs[i*c.Steps:(i+1)*c.Steps])
		require.False(t, math.IsNaN(out.Reward))
	}
}

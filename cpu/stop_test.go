package cpu

import (
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// stopRecipes are the recipes whose rollouts stop at each episode's end
// (the step baseline masked after the answer), with an action vocabulary,
// observations, a reading layout, replays and item focus among them.
func stopRecipes(t *testing.T) map[string]trainer.Config {
	t.Helper()
	out := map[string]trainer.Config{}
	for name, spec := range map[string][2]string{
		"seed":          {"seed", ""},
		"calc":          {"calc", ""},
		"calc observes": {"calc", "levels=abs(a-b), max(a,b)+c"},
		"expr":          {"expr", ""},
	} {
		c := trainer.DefaultRecipe()
		c.Task, c.TaskSpec = spec[0], spec[1]
		c, err := trainer.WithTask(c)
		require.NoError(t, err, name)
		c.Batch, c.Chunk, c.Threads, c.EvalEvery, c.EvalBatch = 80, 32, 2, 5, 40 // chunks of 32, 32 and 16
		out[name] = c
	}
	return out
}

// TestStoppingRolloutsChangeNothing: with its rollouts stopped at each
// episode's end, a recipe trains to the same parameters, update by update
// the same loss terms, as with every rollout run for all T steps, and it
// computes fewer steps; the reference's sum baseline, which weights every
// step, does not stop.
func TestStoppingRolloutsChangeNothing(t *testing.T) {
	updates := 30
	if testing.Short() {
		updates = 8
	}
	for name, c := range stopRecipes(t) {
		var hashes [2]string
		var losses [2][]trainer.LossTerms
		var live [2]int64
		replayed := false
		for i, stop := range []bool{false, true} {
			r, err := newRun(c)
			require.NoError(t, err, name)
			require.True(t, r.stopTraining, name)
			r.stopTraining, r.stopEvaluating = stop, stop
			for u := 0; u < updates; u++ {
				st, err := r.Update()
				require.NoError(t, err, name)
				losses[i] = append(losses[i], st.Loss)
				replayed = replayed || st.Loss.Replay != 0
			}
			hashes[i], live[i] = hash(t, r), r.liveSteps
			r.Close()
		}
		require.Equal(t, losses[0], losses[1], name)
		require.Equal(t, hashes[0], hashes[1], name)
		all := int64(updates * c.Batch * c.Steps)
		require.Equal(t, all, live[0], name)
		require.Less(t, live[1], all*9/10, "%s: the stopped rollouts computed %d of %d steps", name, live[1], all)
		if c.Replay > 0 && !testing.Short() {
			require.True(t, replayed, "%s: no update replayed a program", name)
		}
		t.Logf("%s: %d updates, %.2f of %d steps per episode computed", name, updates, float64(live[1])/float64(updates*c.Batch), c.Steps)
	}
	seed := trainer.ReferenceRecipe()
	seed.Updates = 3
	r, err := newRun(seed)
	require.NoError(t, err)
	defer r.Close()
	require.False(t, r.stopTraining, "the sum baseline weights the steps after the answer")
	for u := 0; u < seed.Updates; u++ {
		_, err := r.Update()
		require.NoError(t, err)
	}
	require.Equal(t, int64(seed.Updates*seed.Batch*seed.Steps), r.liveSteps)
}

// TestStoppingUpdateAllocatesNothing: an update whose rollouts stop
// allocates nothing.
func TestStoppingUpdateAllocatesNothing(t *testing.T) {
	c := stopRecipes(t)["calc"]
	c.Threads = 1
	r, err := newRun(c)
	require.NoError(t, err)
	defer r.Close()
	_, err = r.Update()
	require.NoError(t, err)
	before := r.liveSteps
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := r.Engine.Update(trainer.Plan{Update: 2, Level: 5, Entropy: 0.1}); err != nil {
			panic(fmt.Sprint(err))
		}
	})
	require.Zero(t, allocs)
	require.Less(t, r.liveSteps-before, int64(5*c.Batch*c.Steps), "the rollouts did not stop")
}

package cpu

import (
	"errors"
	"testing"

	"github.com/simdrl/simdrl/internal/enginekit"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// TestGreedySolvedIsScoreOfGreedyPrograms: after some training, on every
// level of recipes that stop (observations, a reading layout, an action
// vocabulary among them), GreedySolved's flags are task.Score's of
// GreedyPrograms's programs, instance by instance, with right and wrong
// answers both among them; its rollouts stopped (fewer steps than n·T) and
// the engine has the method trainer's solvedGreedily looks for.
func TestGreedySolvedIsScoreOfGreedyPrograms(t *testing.T) {
	const updates = 40 // enough for every recipe to answer some instances right (at 8, the seed task answered none)
	for name, c := range stopRecipes(t) {
		c.Threads = 3
		r, err := newRun(c)
		require.NoError(t, err, name)
		var _ interface {
			GreedySolved([]task.Instance, []bool) error
		} = r.Engine // what trainer's solvedGreedily asks for
		for u := 0; u < updates; u++ {
			_, err := r.Update()
			require.NoError(t, err, name)
		}
		key := rng.NewKey(c.Seed + 7)
		var ins []task.Instance
		for lv := range r.task.Levels() {
			for i := 0; i < 70; i++ { // chunks of 32: two full, one short, per level
				ins = append(ins, enginekit.ExplainInstance(r.task, key, lv, i))
			}
		}
		progs := programs(t, r, ins)
		solved := make([]bool, len(ins))
		require.NoError(t, r.GreedySolved(ins, solved), name)
		right, live, all := 0, 0, 0
		for i := range ins {
			want := task.Score(r.task, &ins[i], progs[i*c.Steps:(i+1)*c.Steps]).Correct
			require.Equal(t, want, solved[i], "%s: instance %d (level %d)", name, i, ins[i].Level)
			if want {
				right++
			}
		}
		for _, w := range r.pool.workers {
			live += w.ws.LiveSteps()
			all += w.ws.Rows() * c.Steps
		}
		require.Less(t, live, all, "%s: the workers' last chunks computed every step", name)
		t.Logf("%s: %d of %d right; last chunks computed %d of %d steps", name, right, len(ins), live, all)
		require.Positive(t, right, name)
		require.Less(t, right, len(ins), name)
		r.Close()
	}
}

// TestGreedySolvedRefuses: flags of another length and an instance outside
// the task are errors, not a panic; an interrupt stops it.
func TestGreedySolvedRefuses(t *testing.T) {
	c := trainer.DefaultRecipe()
	r, err := newRun(c)
	require.NoError(t, err)
	defer r.Close()
	in := enginekit.ExplainInstance(r.task, rng.NewKey(1), 0, 0)
	require.Error(t, r.GreedySolved([]task.Instance{in}, nil))
	bad := in
	bad.Level = 99
	require.Error(t, r.GreedySolved([]task.Instance{bad}, make([]bool, 1)))
	require.NoError(t, r.GreedySolved(nil, nil))
	stop := make(chan struct{})
	close(stop)
	r.SetInterrupt(stop)
	err = r.GreedySolved([]task.Instance{in}, make([]bool, 1))
	require.True(t, errors.Is(err, trainer.ErrInterrupted), "%v", err)
}

package cpu

import (
	"errors"
	"fmt"
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// walk is a task with a legal-action mask: a position p on a ring of five
// starts at the shown digit; at each step only p+1 and p+3 (mod 5) are
// legal, and the move to p+1 earns 1/budget. Its games panic on an illegal
// token, so an engine that plays one fails. unmasked is the same task whose
// games do not say what is legal (the control: it must fail). none's mask
// leaves nothing legal (a broken task).
type walk struct {
	unmasked, none bool
}

const (
	walkEnd    = 5
	walkBudget = 4
)

var walkLevel = task.Level{Name: "walk", Context: 1, Budget: walkBudget, Shortest: walkBudget}

func (walk) Name() string               { return "walk" }
func (walk) Vocab() int                 { return 6 }
func (walk) ContextEnd() int32          { return walkEnd }
func (walk) NotActions() []int32        { return []int32{walkEnd} }
func (walk) Answer() int32              { return task.NoAnswer }
func (walk) HoldsOut() bool             { return false }
func (walk) Levels() []task.Level       { return []task.Level{walkLevel} }
func (walk) TokenName(tok int32) string { return fmt.Sprint(tok) }
func (walk) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(lv), NContext: 1, Budget: walkBudget}
	in.Context[0] = int32(r[0] % 5)
	return in
}

func (w walk) NewGame() task.Game {
	g := &walkGame{}
	switch {
	case w.unmasked:
		return g
	case w.none:
		return noneLegal{g}
	}
	return &legalWalk{g}
}

type walkGame struct {
	p, steps int32
	good     bool
}

func walkLegal(p, a int32) bool { return a == (p+1)%5 || a == (p+3)%5 }

func (g *walkGame) Reset(in *task.Instance) int32 {
	g.p, g.steps, g.good = in.Context[0], 0, true
	return task.NoObservation
}

func (g *walkGame) Step(a int32) (int32, float64, bool) {
	if !walkLegal(g.p, a) {
		panic(fmt.Sprintf("walk: illegal token %d at position %d", a, g.p))
	}
	reward := 0.0
	if a == (g.p+1)%5 {
		reward = 1.0 / walkBudget
	} else {
		g.good = false
	}
	g.p = a
	g.steps++
	return task.NoObservation, reward, false
}

func (g *walkGame) Correct() bool { return g.good && g.steps == walkBudget }

type legalWalk struct{ *walkGame }

func (g *legalWalk) Legal(legal []bool) {
	for a := range legal {
		legal[a] = walkLegal(g.p, int32(a))
	}
}

type noneLegal struct{ *walkGame }

func (noneLegal) Legal(legal []bool) { clear(legal) }

func walkConfig() trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads, cfg.Hidden, cfg.Updates = "walk", 2, 16, 40
	cfg.Batch, cfg.Chunk = 64, 16
	cfg.Steps, cfg.TrainLevels = walkBudget, []int{0}
	cfg.StopAt, cfg.Explain = 0, 0
	return cfg
}

// walkInstances are n instances of walk, shown digit i mod 5.
func walkInstances(n int) []task.Instance {
	ins := make([]task.Instance, n)
	for i := range ins {
		ins[i] = task.Instance{NContext: 1, Budget: walkBudget, Context: [task.MaxContext]int32{int32(i % 5)}}
	}
	return ins
}

// The CPU engine never plays a token the mask refuses, sampling (training
// updates) or greedily (evaluations, GreedyPrograms): the games would panic.
// The same task without the mask fails at once (the test can fail), and a
// mask that leaves no token legal is the task's violation.
func TestMaskedTaskNeverPlaysAnIllegalToken(t *testing.T) {
	r := newTaskRun(t, walkConfig(), walk{})
	for u := 1; u <= 20; u++ {
		_, err := r.Engine.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.05})
		require.NoError(t, err, "update %d", u)
	}
	ins := walkInstances(40)
	progs := programs(t, r, ins)
	for i := range ins {
		p := ins[i].Context[0]
		for s, a := range progs[i*walkBudget : (i+1)*walkBudget] {
			require.Truef(t, walkLegal(p, a), "instance %d step %d: greedy token %d at position %d", i, s, a, p)
			p = a
		}
	}
	solved := make([]bool, len(ins))
	require.NoError(t, r.GreedySolved(ins, solved))

	control := newTaskRun(t, walkConfig(), walk{unmasked: true})
	_, err := control.Engine.Update(trainer.Plan{Update: 1, Level: 0, Entropy: 0.05})
	require.ErrorContains(t, err, "illegal token", "without the mask the policy plays illegal tokens: the test could not fail")

	broken := newTaskRun(t, walkConfig(), walk{none: true})
	_, err = broken.Engine.Update(trainer.Plan{Update: 1, Level: 0, Entropy: 0.05})
	var v *task.ViolationError
	require.True(t, errors.As(err, &v), "a mask with no legal token: %v", err)
	require.ErrorContains(t, err, "leaves no token legal")
}

// A masked task trains to the same parameters on any number of threads,
// learns it (the move to p+1 pays), and its updates and evaluations
// allocate nothing.
func TestMaskedTaskThreadsAndAllocations(t *testing.T) {
	var hashes []string
	for _, threads := range []int{1, 3} {
		cfg := walkConfig()
		cfg.Threads = threads
		r := newTaskRun(t, cfg, walk{})
		for u := 1; u <= 40; u++ {
			_, err := r.Engine.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.02})
			require.NoError(t, err)
		}
		hashes = append(hashes, hash(t, r))
		if threads == 3 {
			u := 40
			require.Zero(t, testing.AllocsPerRun(3, func() {
				u++
				_, _ = r.Engine.Update(trainer.Plan{Update: u, Level: 0, Entropy: 0.02})
			}), "a masked update allocates")
			require.Zero(t, testing.AllocsPerRun(3, func() { r.evaluate(0, 50, 9, task.HeldOut) }), "a masked evaluation allocates")
		}
	}
	require.Equal(t, hashes[0], hashes[1], "threads 1 and 3")
}

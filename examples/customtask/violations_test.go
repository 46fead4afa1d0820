package customtask

import (
	"fmt"
	"io"
	"math"
	"testing"

	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// hostile is MaxDigit with one contract violation: what its hooks change in
// a drawn instance, a panic in Score, NaN rewards on evaluation draws, or
// its own answer, non-actions or levels.
type hostile struct {
	MaxDigit
	draw         func(in *task.Instance) // changes each drawn instance
	scorePanic   bool
	explainPanic bool
	evalNaN      bool // Score pays NaN on the evaluations' draws
	answer       int32
	notActions   []int32
	levels       []task.Level
}

const hostileName = "hostile"

// evalTarget marks an evaluation draw (no real target is negative).
const evalTarget = -7

func newHostile() *hostile {
	return &hostile{answer: ANS, notActions: []int32{task.CTX}, levels: []task.Level{level}}
}

func (h *hostile) Name() string         { return hostileName }
func (h *hostile) Answer() int32        { return h.answer }
func (h *hostile) NotActions() []int32  { return h.notActions }
func (h *hostile) Levels() []task.Level { return h.levels }

func (h *hostile) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, s task.Split) task.Instance {
	in := h.MaxDigit.Draw(key, round, episode, purpose, lv, s)
	if h.evalNaN && purpose != rng.PurposeTask {
		in.Data[target] = evalTarget
	}
	if h.draw != nil {
		h.draw(&in)
	}
	return in
}

func (h *hostile) Score(in *task.Instance, program []int32) task.Outcome {
	switch {
	case h.scorePanic:
		panic("hostile Score")
	case in.Data[target] == evalTarget:
		return task.Outcome{Reward: math.NaN()}
	}
	return h.MaxDigit.Score(in, program)
}

func (h *hostile) Explain(in *task.Instance, program []int32) task.Explanation {
	if h.explainPanic {
		panic("hostile Explain")
	}
	return h.MaxDigit.Explain(in, program)
}

// observing is hostile with observations, stepped by its own Env, which
// writes an observation outside its vocabulary or panics in Step.
type observing struct {
	*hostile
	badObs, stepPanic bool
}

func (observing) Observations() int              { return 2 }
func (observing) ObservationName(o int32) string { return "o" }
func (o observing) NewEnv(rows int) task.Env     { return &observingEnv{o: o, steps: make([]int, rows)} }

type observingEnv struct {
	o     observing
	steps []int
}

func (e *observingEnv) Rows() int                              { return len(e.steps) }
func (e *observingEnv) Observations() int                      { return 2 }
func (e *observingEnv) Correct(int) bool                       { return false }
func (e *observingEnv) Reset(row int, in *task.Instance) int32 { e.steps[row] = 0; return 0 }

func (e *observingEnv) Step(actions []int32, out task.Transition) {
	if e.o.stepPanic {
		panic("hostile Step")
	}
	for r := range actions {
		e.steps[r]++
		out.Obs[r], out.Reward[r], out.Done[r] = 1, 0, e.steps[r] >= level.Budget
		if e.o.badObs {
			out.Obs[r] = 7
		}
	}
}

// hostileGuess is Guess with one contract violation in its games: an
// observation outside its vocabulary, a NaN reward, or a panic in Reset or
// Step.
type hostileGuess struct {
	Guess
	badObs, nanReward, resetPanic, stepPanic bool
}

func (h *hostileGuess) Name() string       { return hostileName }
func (h *hostileGuess) NewGame() task.Game { return &hostileGame{h: h} }

type hostileGame struct {
	guessGame
	h *hostileGuess
}

func (g *hostileGame) Reset(in *task.Instance) int32 {
	if g.h.resetPanic {
		panic("hostile game Reset")
	}
	return g.guessGame.Reset(in)
}

func (g *hostileGame) Step(tok int32) (int32, float64, bool) {
	if g.h.stepPanic {
		panic("hostile game Step")
	}
	obs, reward, done := g.guessGame.Step(tok)
	if g.h.badObs {
		obs = 9
	}
	if g.h.nanReward {
		reward = math.NaN()
	}
	return obs, reward, done
}

// unplayable is a task that neither steps nor scores its programs: Guess
// seen only through task.Task, renamed.
type unplayable struct{ task.Task }

func (unplayable) Name() string { return hostileName }

// hostileConfig is the maxdigit config for a hostile task: a few updates,
// evaluated after the first.
func hostileConfig(t *testing.T) trainer.Config {
	cfg := config(t)
	cfg.Task, cfg.Updates, cfg.EvalEvery, cfg.EvalBatch, cfg.FinalEpisodes = hostileName, 2, 1, 8, 8
	return cfg
}

// driveHostile trains tk through the Go API, as an embedding program does,
// and returns the first error: of the engine's construction, or of Drive.
func driveHostile(t *testing.T, tk task.Task) error {
	return driveHostileWith(t, hostileConfig(t), tk)
}

// driveHostileWith is driveHostile with the config cfg.
func driveHostileWith(t *testing.T, cfg trainer.Config, tk task.Task) error {
	for _, l := range tk.Levels() {
		cfg.Steps = max(cfg.Steps, l.Budget) // a rollout of the task's longest budget (guess's 4)
	}
	e, err := cpu.NewWithTask(cfg, tk)
	if err != nil {
		return err
	}
	defer e.Close()
	tr, err := trainer.New(cfg, tk, e)
	if err != nil {
		return err
	}
	_, err = trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	return err
}

// TestContractViolations: each way a task from another module can break
// the contract is an error that names the task (and what it did), from
// the engine's construction or from Drive, never a panic that kills the
// process from an engine goroutine.
func TestContractViolations(t *testing.T) {
	for _, c := range []struct {
		name string
		task func() task.Task
		want []string // in the error
	}{
		{"NContext -1", func() task.Task {
			h := newHostile()
			h.draw = func(in *task.Instance) { in.NContext = -1 }
			return h
		}, []string{"hostile task drew a bad instance of level 0", "shows -1 context tokens"}},
		{"NContext 30", func() task.Task {
			h := newHostile()
			h.draw = func(in *task.Instance) { in.NContext = 30 }
			return h
		}, []string{"hostile task drew a bad instance of level 0", "30 context tokens"}},
		{"context token outside the vocabulary", func() task.Task {
			h := newHostile()
			h.draw = func(in *task.Instance) { in.Context[1] = 40 }
			return h
		}, []string{"hostile task drew a bad instance of level 0", "token 40"}},
		{"level out of range", func() task.Task {
			h := newHostile()
			h.draw = func(in *task.Instance) { in.Level = 3 }
			return h
		}, []string{"hostile task drew a bad instance of level 0", "level 3"}},
		{"non-positive instance budget", func() task.Task {
			h := newHostile()
			h.draw = func(in *task.Instance) { in.Budget = -1 }
			return h
		}, []string{"hostile task drew a bad instance of level 0", "budget of -1"}},
		{"observation out of range", func() task.Task {
			return observing{hostile: newHostile(), badObs: true}
		}, []string{"hostile task's Env returned observation 7"}},
		{"panic in Step", func() task.Task {
			return observing{hostile: newHostile(), stepPanic: true}
		}, []string{"panic while running the hostile task: hostile Step"}},
		{"panic in Score", func() task.Task {
			h := newHostile()
			h.scorePanic = true
			return h
		}, []string{"panic while running the hostile task: hostile Score"}},
		{"panic in Explain", func() task.Task {
			h := newHostile()
			h.explainPanic = true
			return h
		}, []string{"panic while running the hostile task: hostile Explain"}},
		{"NaN reward on evaluation draws", func() task.Task {
			h := newHostile()
			h.evalNaN = true
			return h
		}, []string{"hostile task paid a reward of NaN on level 0"}},
		{"game observation out of range", func() task.Task {
			return &hostileGuess{badObs: true}
		}, []string{"hostile task's Env returned observation 9"}},
		{"game NaN reward", func() task.Task {
			return &hostileGuess{nanReward: true}
		}, []string{"hostile task paid a reward of NaN on level 0"}},
		{"panic in game Reset", func() task.Task {
			return &hostileGuess{resetPanic: true}
		}, []string{"panic while running the hostile task: hostile game Reset"}},
		{"panic in game Step", func() task.Task {
			return &hostileGuess{stepPanic: true}
		}, []string{"panic while running the hostile task: hostile game Step"}},
		{"neither steps nor scores", func() task.Task {
			return unplayable{Guess{}}
		}, []string{"hostile task can neither score nor step a program"}},
		{"negative budget", func() task.Task {
			h := newHostile()
			h.levels = []task.Level{{Name: "max(a,b)", Context: 2, Budget: -1}}
			return h
		}, []string{"hostile task's level 0 (max(a,b)) has a budget of -1"}},
		{"level context past MaxContext", func() task.Task {
			h := newHostile()
			h.levels = []task.Level{{Name: "max(a,b)", Context: task.MaxContext + 1, Budget: 2}}
			return h
		}, []string{fmt.Sprintf("hostile task's level 0 (max(a,b)) shows %d context tokens", task.MaxContext+1)}},
		{"no levels", func() task.Task {
			h := newHostile()
			h.levels = nil
			return h
		}, []string{"hostile task has no levels"}},
		{"answer outside the vocabulary", func() task.Task {
			h := newHostile()
			h.answer = vocab
			return h
		}, []string{"hostile task's answer token 12 is outside its vocabulary"}},
		{"answer among the non-actions", func() task.Task {
			h := newHostile()
			h.notActions = []int32{task.CTX, ANS}
			return h
		}, []string{"hostile task's answer token 11 (ANS) is among its non-actions"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = driveHostile(t, c.task()) })
			require.Error(t, err)
			for _, w := range c.want {
				require.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestContextPastItsLevel: an instance that shows more context tokens than
// its level declares (Level.Context, which sizes a reading model's steps)
// is one line of error that names the task and the level, whether the
// model reads its context or takes its bag; never a panic.
func TestContextPastItsLevel(t *testing.T) {
	for _, context := range []string{trainer.ContextBag, trainer.ContextRead} {
		h := newHostile()
		h.draw = func(in *task.Instance) { in.NContext = int32(level.Context + 1) }
		cfg := hostileConfig(t)
		cfg.Context = context
		var err error
		require.NotPanics(t, func() { err = driveHostileWith(t, cfg, h) }, context)
		require.ErrorContains(t, err, "hostile task drew a bad instance of level 0", context)
		require.ErrorContains(t, err, "more than its level 0 (max(a,b)) declares (Level.Context 2)", context)
		require.NotContains(t, err.Error(), "\n", context)
	}
}

// TestPanicInDraw: a panic in the task's Draw, called from an engine
// worker, is Update's error, and the engine trains on after it (the task
// panics once).
func TestPanicInDraw(t *testing.T) {
	panics := true
	h := newHostile()
	h.draw = func(*task.Instance) {
		if panics {
			panic("hostile Draw")
		}
	}
	cfg := hostileConfig(t)
	e, err := cpu.NewWithTask(cfg, h)
	require.NoError(t, err)
	defer e.Close()
	tr, err := trainer.New(cfg, h, e)
	require.NoError(t, err)
	_, err = tr.Update()
	require.EqualError(t, err, "panic while running the hostile task: hostile Draw")
	panics = false
	_, err = tr.Update()
	require.NoError(t, err)
}

package cpu

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
)

// echo is a task only its observations solve: each instance hides a bit the
// context does not show; PROBE's observation reveals it, and a program is
// correct when its second token names the bit (PROBE then the bit). An
// open-loop policy cannot beat 0.5, one that reads the observation after
// PROBE can reach 1. blind makes the Env answer every step with 0 (the
// observation path fed, but telling nothing); obs is the observation
// vocabulary it declares (3 unless set, −1: none, so that a checkpoint of
// another count can be tried), envObs what its Env claims (0: the same).
type echo struct {
	blind  bool
	obs    int
	envObs int
}

const (
	echoProbe = 2 // an action whose observation is 1 + the hidden bit
	echoEnd   = 3 // ends the contexts; the programs' first input
	echoVocab = 4
)

// Observations: 0 nothing to say (another action, or the episode is over),
// 1 + bit after PROBE; Reset returns the shown token (0 or 1), which the
// context holds anyway.
var echoLevel = task.Level{Name: "echo", Context: 1, Budget: 2, Shortest: 2}

func (echo) Name() string         { return "echo" }
func (echo) Vocab() int           { return echoVocab }
func (echo) ContextEnd() int32    { return echoEnd }
func (echo) NotActions() []int32  { return []int32{echoEnd} }
func (echo) Answer() int32        { return -1 } // the budget ends every program
func (echo) HoldsOut() bool       { return false }
func (echo) Levels() []task.Level { return []task.Level{echoLevel} }
func (t echo) Observations() int {
	if t.obs == 0 {
		return 3
	}
	return max(t.obs, 0)
}
func (echo) ObservationName(o int32) string { return fmt.Sprintf("o%d", o) }
func (echo) TokenName(tok int32) string {
	switch tok {
	case 0, 1:
		return fmt.Sprint(tok)
	case echoProbe:
		return "PROBE"
	case echoEnd:
		return "END"
	}
	return fmt.Sprintf("?%d", tok)
}

// Draw shows one random token and hides another bit, the target.
func (echo) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, lv int, _ task.Split) task.Instance {
	r := key.Block(round, episode, 0, purpose)
	in := task.Instance{Level: int32(lv), NContext: 1, Budget: int32(echoLevel.Budget)}
	in.Context[0], in.Data[0] = int32(r[0]%2), int64(r[1]%2)
	return in
}

func (echo) Score(in *task.Instance, program []int32) task.Outcome {
	if len(program) >= 2 && program[0] == echoProbe && int64(program[1]) == in.Data[0] {
		return task.Outcome{Reward: 1, Correct: true}
	}
	return task.Outcome{}
}

func (t echo) Explain(in *task.Instance, program []int32) task.Explanation {
	o := t.Score(in, program)
	ex := task.Explanation{Level: 0, Name: echoLevel.Name, Context: []int32{in.Context[0]}, Target: fmt.Sprint(in.Data[0]),
		Reward: o.Reward, Correct: o.Correct}
	for i, tok := range program {
		ex.Tokens = append(ex.Tokens, t.TokenName(tok))
		if i < echoLevel.Budget {
			ex.Trace = append(ex.Trace, task.Step{Token: t.TokenName(tok), State: fmt.Sprintf("hidden=%d", in.Data[0])})
		}
	}
	return ex
}

// NewEnv steps echo's episodes itself (task.Stepper): the observations come
// from here.
func (t echo) NewEnv(rows int) task.Env {
	return &echoEnv{t: t, ins: make([]task.Instance, rows), program: make([]int32, 2*rows), steps: make([]int, rows),
		correct: make([]bool, rows)}
}

type echoEnv struct {
	t       echo
	ins     []task.Instance
	program []int32 // rows×2
	steps   []int
	correct []bool
}

func (e *echoEnv) Rows() int { return len(e.ins) }
func (e *echoEnv) Observations() int {
	if e.t.envObs != 0 {
		return e.t.envObs
	}
	return e.t.Observations()
}
func (e *echoEnv) Correct(row int) bool { return e.correct[row] }

func (e *echoEnv) Reset(row int, in *task.Instance) int32 {
	e.ins[row], e.steps[row], e.correct[row] = *in, 0, false
	if e.t.blind {
		return 0
	}
	return in.Context[0]
}

func (e *echoEnv) Step(actions []int32, out task.Transition) {
	for r, a := range actions {
		out.Obs[r], out.Reward[r] = 0, 0
		k := e.steps[r]
		if k < 2 {
			e.program[2*r+k] = a
			e.steps[r]++
			if k == 0 && a == echoProbe && !e.t.blind {
				out.Obs[r] = 1 + int32(e.ins[r].Data[0])
			}
			if k == 1 {
				o := e.t.Score(&e.ins[r], e.program[2*r:2*r+2])
				out.Reward[r], e.correct[r] = o.Reward, o.Correct
			}
		}
		out.Done[r] = e.steps[r] >= 2
	}
}

// echoConfig is the default recipe on the echo task, small enough to learn
// in a second or two.
func echoConfig() trainer.Config {
	cfg := trainer.DefaultRecipe()
	cfg.Task, cfg.Threads, cfg.Hidden, cfg.Updates = "echo", 2, 32, 300
	cfg.Steps, cfg.TrainLevels = echoLevel.Budget, []int{0}
	cfg.StopAt = 0 // the whole schedule: its entropy decays to 0, the policy ends greedy
	cfg.Explain = 0
	return cfg
}

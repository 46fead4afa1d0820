package seedtask

import (
	"fmt"

	"github.com/simdrl/simdrl/env/interp"
	"github.com/simdrl/simdrl/env/seed"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// seedTask is the reference script's tool environment (package env/seed), kept
// bit-exact: its levels are the reference's three stages, it has no held-out split, and
// its rewards are step_seq's.
type seedTask struct{ levels []task.Level }

func init() {
	task.Register("seed", func(spec string) (task.Task, error) {
		if spec != "" {
			return nil, &task.SpecError{Key: "task_spec", Err: fmt.Errorf("the seed task takes no options (its levels and reward are the reference's), got %q", spec)}
		}
		return Seed(), nil
	})
}

// Seed is the reference script's task.
func Seed() task.Task {
	t := &seedTask{}
	for s := 0; s < seed.NumLevels; s++ {
		// MUL ANS, MUL ADD ANS, MUL ADD SUB ANS: the rewarded targets a·b,
		// a·b+c, a·b+c−d.
		t.levels = append(t.levels, task.Level{Name: fmt.Sprintf("level %d", s), Context: seed.ContextLen(s), Budget: seed.MaxSteps, Shortest: 2 + s})
	}
	return t
}

var (
	_ task.SeedMachine       = (*seedTask)(nil)
	_ task.ReferenceSchedule = (*seedTask)(nil)
	_ task.Titled            = (*seedTask)(nil)
)

// SeedMachine: its programs run on env/seed's machine, which the CUDA
// kernels score themselves (env.cuh).
func (*seedTask) SeedMachine() {}

// ReferenceSchedule: the reference writes 6 tokens of the 7-step budget,
// on the recipe's levels.
func (*seedTask) ReferenceSchedule() {}

// LevelTitle is "Level 1" (the reference prints "Stage 1").
func (*seedTask) LevelTitle(level int) string { return fmt.Sprintf("Level %d", level) }

func (*seedTask) Name() string        { return "seed" }
func (*seedTask) Answer() int32       { return seed.ANS }
func (*seedTask) NotActions() []int32 { return nil } // the reference samples every token
func (*seedTask) HoldsOut() bool      { return false }

// RewardNote: the reference's shaped bonus pays for tokens that are not the
// answer, so a mean reward can exceed 1.
func (*seedTask) RewardNote() string         { return "the shaped bonus can take them above 1" }
func (*seedTask) Vocab() int                 { return seed.Vocab }
func (*seedTask) TokenName(tok int32) string { return seed.TokenName(int(tok)) }
func (t *seedTask) Levels() []task.Level     { return t.levels }
func (*seedTask) Score(in *task.Instance, program []int32) task.Outcome {
	o := seed.Run(envTask(in), program)
	return task.Outcome{Reward: o.Reward, Correct: o.Correct}
}

// Draw draws the level's digits as the reference does (all five, whatever
// the level shows); the split does not apply.
func (*seedTask) Draw(key rng.Key, round, episode uint32, purpose rng.Purpose, level int, _ task.Split) task.Instance {
	return FromEnv(seed.DrawTask(key, round, episode, purpose, level))
}

// FromEnv is the instance of one of env's tasks: the digits its level shows
// are its context, and all five are the machine's operands (its data, as
// interp.Operands, which the GPU's kernel reads too), with the rewarded
// target.
func FromEnv(t seed.Task) task.Instance {
	n := int32(seed.ContextLen(t.Level))
	in := task.Instance{Level: int32(t.Level), Budget: seed.MaxSteps, NContext: n}
	o := interp.Operands{Vars: n, Target: int64(t.RewardedTarget())}
	for i, d := range t.Digits {
		o.Digits[i] = int32(d)
	}
	copy(in.Context[:], o.Digits[:n])
	o.Put(in.Data[:])
	return in
}

func envTask(in *task.Instance) seed.Task {
	t := seed.Task{Level: int(in.Level)}
	o := interp.Get(in.Data[:])
	for i := range t.Digits {
		t.Digits[i] = int(o.Digits[i])
	}
	return t
}

// Explain shows the register and memory after every token, and what the
// reference's sample() calls the target (it is not what is rewarded).
func (*seedTask) Explain(in *task.Instance, program []int32) task.Explanation {
	t := envTask(in)
	o, trace := seed.Trace(t, program, nil)
	ex := task.Explanation{
		Level: int(in.Level), Name: fmt.Sprintf("level %d", in.Level), Context: append([]int32(nil), in.Context[:in.NContext]...),
		Target: fmt.Sprint(interp.Get(in.Data[:]).Target), Note: fmt.Sprintf("the reference's sample() target %d, not rewarded: docs/tasks.md", t.SampleTarget()),
		Reward: o.Reward, Correct: o.Correct,
	}
	for _, a := range program {
		ex.Tokens = append(ex.Tokens, seed.TokenName(int(a)))
	}
	for _, s := range trace {
		last := "None"
		if s.HasLast {
			last = fmt.Sprint(s.Last)
		}
		ex.Trace = append(ex.Trace, task.Step{Token: seed.TokenName(s.Token), State: fmt.Sprintf("last=%s mem=%s", last, s.Mem)})
	}
	return ex
}

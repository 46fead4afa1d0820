package policy_test

import (
	"fmt"
	"slices"

	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// Load a trained checkpoint, then play an instance of its task two ways:
// whole (Play, the task's Env inside) and step by step (a Session fed the
// Env's observations, as a service would drive it). The two programs are the
// same. (Printed are only facts every kernel backend gives alike: the floats
// round differently on avx2, avx512, neon and generic.)
func Example() {
	p, err := policy.Load("../testdata/checkpoints/valid.safetensors")
	if err != nil {
		fmt.Println(err)
		return
	}
	t := p.Task()
	in := t.Draw(rng.NewKey(1), 0, 0, rng.PurposeEval, 0, task.HeldOut)

	program := make([]int32, p.Steps())
	results := make([]policy.Result, 1)
	if err := p.Play([]task.Instance{in}, program, results); err != nil {
		fmt.Println(err)
		return
	}

	s := p.Session() // pooled: its own hidden state, for one episode at a time
	defer s.Release()
	env := task.NewEnv(t, 1)
	obs := env.Reset(0, &in) // the task's first observation (none for the seed task)
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	if err := s.Start(&in, policy.Pick{}); err != nil { // greedy; policy.Pick{Sample: true, Seed: 1} samples
		fmt.Println(err)
		return
	}
	var tokens []int32
	for !out.Done[0] && s.Played() < p.Steps() {
		a, err := s.Act(obs)
		if err != nil {
			fmt.Println(err)
			return
		}
		tokens = append(tokens, a)
		env.Step([]int32{a}, out)
		obs = out.Obs[0]
	}
	fmt.Println("task:", t.Name(), "steps:", p.Steps())
	fmt.Println("same program:", slices.Equal(tokens, program[:results[0].Steps]))
	// Output:
	// task: seed steps: 6
	// same program: true
}

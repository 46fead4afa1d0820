package policy_test

import (
	"testing"

	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// observed is the observations the task's Env returns to in's greedy
// episode, one per step (the first: Reset's), for replaying a step loop
// without the Env.
func observed(t testing.TB, p *policy.Policy, in *task.Instance) []int32 {
	env := task.NewEnv(p.Task(), 1)
	obs := []int32{env.Reset(0, in)}
	s := p.NewSession()
	require.NoError(t, s.Start(in, policy.Pick{}))
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	for s.Played() < p.Steps() {
		a, err := s.Act(obs[len(obs)-1])
		require.NoError(t, err)
		env.Step([]int32{a}, out)
		obs = append(obs, out.Obs[0])
	}
	return obs
}

// episodeSteps plays one whole episode on s: Start, then every step with its
// value and distribution, greedy or sampled.
func episodeSteps(s *policy.Session, in *task.Instance, obs []int32, dist []float32, pick policy.Pick) error {
	if err := s.Start(in, pick); err != nil {
		return err
	}
	for t := range len(obs) - 1 {
		if _, err := s.Act(obs[t]); err != nil {
			return err
		}
		_ = s.Value()
		if _, err := s.Probs(dist); err != nil {
			return err
		}
	}
	return nil
}

// TestStepAllocatesNothing: a session's episodes, Start and every step with
// its value and distribution, allocate nothing, greedy or sampled, for every
// kind of model.
func TestStepAllocatesNothing(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			path, _, _ := trained(t, k)
			p, err := policy.Load(path)
			require.NoError(t, err)
			in := draw(p.Task(), 1)[len(p.Task().Levels())-1]
			obs := observed(t, p, &in)
			s := p.NewSession()
			dist := make([]float32, p.Vocab())
			for _, pick := range []policy.Pick{{}, {Sample: true, Seed: 2, Episode: 5}} {
				require.NoError(t, episodeSteps(s, &in, obs, dist, pick))
				require.Zero(t, testing.AllocsPerRun(20, func() {
					if err := episodeSteps(s, &in, obs, dist, pick); err != nil {
						panic(err)
					}
				}), "pick %+v", pick)
			}
		})
	}
}

// BenchmarkStep is one step of a greedy session of each kind of model (the
// episode's Start amortised over its steps): 0 allocs/op.
func BenchmarkStep(b *testing.B) {
	for _, k := range kinds {
		b.Run(k.name, func(b *testing.B) {
			path, _, _ := trained(b, k)
			p, err := policy.Load(path)
			require.NoError(b, err)
			in := draw(p.Task(), 1)[0]
			obs := observed(b, p, &in)
			s := p.Session()
			defer s.Release()
			b.ReportAllocs()
			b.ResetTimer()
			t := len(obs) - 1
			for range b.N {
				if t == len(obs)-1 {
					if err := s.Start(&in, policy.Pick{}); err != nil {
						b.Fatal(err)
					}
					t = 0
				}
				if _, err := s.Act(obs[t]); err != nil {
					b.Fatal(err)
				}
				t++
			}
		})
	}
}

package policy_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// draw is n held-out instances of every level of t, from a stream of their own.
func draw(t task.Task, n int) []task.Instance {
	var ins []task.Instance
	for level := range t.Levels() {
		for i := range n {
			ins = append(ins, t.Draw(rng.NewKey(5), 7, uint32(i), rng.PurposeEval, level, task.HeldOut))
		}
	}
	return ins
}

// TestEqualsEvalOnly: for every kind of model, the policy's final
// evaluation is -eval-only's (solve rates and mean rewards bit for bit),
// and Play's programs are the engine's GreedyPrograms up to each episode's
// end, scored as task.Score scores them.
func TestEqualsEvalOnly(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			path, _, e := trained(t, k)
			rep := evalOnly(t, path)
			p, err := policy.Load(path)
			require.NoError(t, err)
			for level := range p.Task().Levels() {
				got, err := p.Evaluate(level, p.FinalEvaluation())
				require.NoError(t, err)
				require.Equal(t, rep.FinalByLevel[level], got, "level %d", level)
			}

			ins := draw(p.Task(), 9)
			want, err := e.GreedyPrograms(ins)
			require.NoError(t, err)
			T := p.Steps()
			progs := make([]int32, len(ins)*T)
			res := make([]policy.Result, len(ins))
			require.NoError(t, p.Play(ins, progs, res))
			distinct := map[string]bool{}
			for i := range ins {
				n := res[i].Steps
				distinct[fmt.Sprint(want[i*T:i*T+n])] = true
				require.Equal(t, want[i*T:i*T+n], progs[i*T:i*T+n], "instance %d", i)
				out := task.Score(p.Task(), &ins[i], want[i*T:(i+1)*T])
				require.Equal(t, out.Correct, res[i].Correct, "instance %d", i)
				require.InDelta(t, out.Reward, res[i].Reward, 1e-12, "instance %d", i)
			}
			require.Greater(t, len(distinct), 1, "the programs vary with the instance: their equality says something")
		})
	}
}

// playSession plays in with a session, step by step, with the task's own
// Env of one row: the tokens up to the episode's end, the values and the
// probabilities of each token taken.
func playSession(t testing.TB, p *policy.Policy, s *policy.Session, in *task.Instance, pick policy.Pick) (toks []int32, values, probs []float32) {
	toks, values, probs, err := episode(p, s, in, pick)
	require.NoError(t, err)
	return toks, values, probs
}

// episode is playSession's play, its error returned (for other goroutines).
func episode(p *policy.Policy, s *policy.Session, in *task.Instance, pick policy.Pick) (toks []int32, values, probs []float32, err error) {
	env := task.NewEnv(p.Task(), 1)
	obs := env.Reset(0, in)
	if err := s.Start(in, pick); err != nil {
		return nil, nil, nil, err
	}
	out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
	dist := make([]float32, p.Vocab())
	for !out.Done[0] && s.Played() < p.Steps() {
		a, err := s.Act(obs)
		if err != nil {
			return nil, nil, nil, err
		}
		toks = append(toks, a)
		values = append(values, s.Value())
		if _, err = s.Probs(dist); err != nil {
			return nil, nil, nil, err
		}
		probs = append(probs, dist[a])
		env.Step([]int32{a}, out)
		obs = out.Obs[0]
	}
	return toks, values, probs, nil
}

// TestSessionIsPlay: a greedy session fed the observations of the task's
// Env plays Play's programs token for token, each token the most probable,
// with a distribution that sums to 1; a sampled one is the same for the
// same Pick, whichever session plays it.
func TestSessionIsPlay(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.name, func(t *testing.T) {
			path, _, _ := trained(t, k)
			p, err := policy.Load(path)
			require.NoError(t, err)
			ins := draw(p.Task(), 5)
			T := p.Steps()
			progs := make([]int32, len(ins)*T)
			res := make([]policy.Result, len(ins))
			require.NoError(t, p.Play(ins, progs, res))
			s := p.Session()
			defer s.Release()
			dist := make([]float32, p.Vocab())
			for i := range ins {
				toks, values, _ := playSession(t, p, s, &ins[i], policy.Pick{})
				require.Equal(t, progs[i*T:i*T+res[i].Steps], toks, "instance %d", i)
				require.False(t, math.IsNaN(float64(values[0])))
				_, err := s.Probs(dist)
				require.NoError(t, err)
				sum := float32(0)
				for _, q := range dist {
					require.LessOrEqual(t, q, dist[toks[len(toks)-1]], "greedy takes the most probable token")
					sum += q
				}
				require.InDelta(t, 1, sum, 1e-4)
			}
			pick := policy.Pick{Sample: true, Seed: 9, Round: 3, Episode: 1}
			a, _, pa := playSession(t, p, s, &ins[0], pick)
			other := p.NewSession()
			b, _, pb := playSession(t, p, other, &ins[0], pick)
			require.Equal(t, a, b)
			require.Equal(t, pa, pb)
		})
	}
}

// TestSessionRefuses: Act before Start, past the rollout, an observation
// outside the task's, a short Probs buffer and an instance of another
// level are errors.
func TestSessionRefuses(t *testing.T) {
	path, _, _ := trained(t, kinds[2]) // observing
	p, err := policy.Load(path)
	require.NoError(t, err)
	s := p.NewSession()
	_, err = s.Act(0)
	require.EqualError(t, err, "policy: Act before Start")
	in := draw(p.Task(), 1)[0]
	require.NoError(t, s.Start(&in, policy.Pick{}))
	_, err = s.Act(int32(p.Observations()))
	require.ErrorContains(t, err, "outside the calc task's")
	_, err = s.Probs(make([]float32, p.Vocab()))
	require.EqualError(t, err, "policy: Probs before the first step")
	for range p.Steps() {
		_, err = s.Act(0)
		require.NoError(t, err)
	}
	_, err = s.Act(0)
	require.True(t, errors.Is(err, policy.ErrBudget))
	_, err = s.Probs(make([]float32, 2))
	require.ErrorContains(t, err, "needs room for")
	bad := in
	bad.Level = 99
	require.ErrorContains(t, s.Start(&bad, policy.Pick{}), "level 99")
	_, err = s.Act(0)
	require.EqualError(t, err, "policy: Act before Start", "a refused start leaves no episode to continue")
	require.ErrorContains(t, p.Play([]task.Instance{bad}, nil, make([]policy.Result, 1)), "level 99")
	require.ErrorContains(t, p.Play([]task.Instance{in}, nil, nil), "results")
	_, err = p.Evaluate(99, p.FinalEvaluation())
	require.ErrorContains(t, err, "level 99")
	_, err = p.Evaluate(0, policy.Evaluation{Episodes: 4})
	require.ErrorContains(t, err, "in chunks of 0")
}

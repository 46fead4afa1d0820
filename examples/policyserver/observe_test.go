package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/simdrl/simdrl/checkpoint"
	"github.com/simdrl/simdrl/cpu"
	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/simdrl/simdrl/trainer"
	"github.com/stretchr/testify/require"
)

// observingPolicy trains a short calc run whose branching levels observe
// what their tools found, and loads its checkpoint.
func observingPolicy(t *testing.T) *policy.Policy {
	c := trainer.DefaultRecipe()
	c.Task, c.TaskSpec = "calc", "levels=abs(a-b), max(a,b)+c"
	c, err := trainer.WithTask(c)
	require.NoError(t, err)
	c.Hidden, c.Updates, c.Batch, c.Chunk, c.EvalEvery, c.FinalEpisodes, c.Explain = 16, 2, 16, 8, 0, 8, 0
	e, err := cpu.New(c)
	require.NoError(t, err)
	defer e.Close()
	tr, err := trainer.New(c, e.Task(), e)
	require.NoError(t, err)
	_, err = trainer.Drive(tr, io.Discard, trainer.Options{Quiet: true})
	require.NoError(t, err)
	f, err := tr.Checkpoint()
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "observe.safetensors")
	require.NoError(t, checkpoint.WriteFile(path, f))
	p, err := policy.Load(path)
	require.NoError(t, err)
	require.Positive(t, p.Observations())
	return p
}

// TestServerActsOnObservations: for a task that observes, /act plays one
// step per observation given, as a session fed those observations plays;
// without them it is a 400.
func TestServerActsOnObservations(t *testing.T) {
	p := observingPolicy(t)
	srv := httptest.NewServer(newServer(p))
	defer srv.Close()
	tk := p.Task()
	for i := range 4 {
		in := tk.Draw(rng.NewKey(2), 0, uint32(i), rng.PurposeEval, 1, task.HeldOut)
		// the session's own episode with the task's Env: its tokens and observations
		env := task.NewEnv(tk, 1)
		obs := env.Reset(0, &in)
		s := p.NewSession()
		require.NoError(t, s.Start(&in, policy.Pick{}))
		out := task.Transition{Obs: make([]int32, 1), Reward: make([]float64, 1), Done: make([]bool, 1)}
		var tokens, observations []int32
		for !out.Done[0] && s.Played() < p.Steps() {
			a, err := s.Act(obs)
			require.NoError(t, err)
			tokens, observations = append(tokens, a), append(observations, obs)
			env.Step([]int32{a}, out)
			obs = out.Obs[0]
		}
		body, err := json.Marshal(actRequest{Level: 1, Context: in.Context[:in.NContext], Observations: observations})
		require.NoError(t, err)
		code, reply := post(t, srv, "/act", string(body))
		require.Equal(t, http.StatusOK, code, reply)
		var a actReply
		require.NoError(t, json.Unmarshal([]byte(reply), &a))
		require.Equal(t, tokens, a.IDs, "instance %d", i)
	}
	code, reply := post(t, srv, "/act", `{"level":0,"context":[1,2]}`)
	require.Equal(t, http.StatusBadRequest, code)
	require.Contains(t, reply, "the calc task observes: give 1 to")
}

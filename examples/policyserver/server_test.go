package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
	"github.com/stretchr/testify/require"
)

// serve starts the server on the corpus's valid checkpoint (the seed task).
func serve(t *testing.T) (*httptest.Server, *policy.Policy) {
	p, err := policy.Load("../../testdata/checkpoints/valid.safetensors")
	require.NoError(t, err)
	srv := httptest.NewServer(newServer(p))
	t.Cleanup(srv.Close)
	return srv, p
}

// post sends body to path and returns the status and the body.
func post(t *testing.T, srv *httptest.Server, path, body string) (int, string) {
	res, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, string(b)
}

// TestServerPlaysThePolicy: GET / describes the task; /play's episodes are
// Play's on the instances the task draws; /act on one of their contexts
// gives the same program, token by token, as Play.
func TestServerPlaysThePolicy(t *testing.T) {
	srv, p := serve(t)
	res, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	var in info
	require.NoError(t, json.NewDecoder(res.Body).Decode(&in))
	res.Body.Close()
	require.Equal(t, "seed", in.Task)
	require.Equal(t, p.Steps(), in.Steps)
	require.Len(t, in.Tokens, p.Vocab())

	tk := p.Task()
	const count = 5
	ins := make([]task.Instance, count)
	for i := range ins {
		ins[i] = tk.Draw(rng.NewKey(3), 0, uint32(10+i), rng.PurposeEval, 1, task.HeldOut)
	}
	T := p.Steps()
	programs := make([]int32, count*T)
	results := make([]policy.Result, count)
	require.NoError(t, p.Play(ins, programs, results))

	code, body := post(t, srv, "/play", `{"level":1,"first":10,"count":5,"seed":3}`)
	require.Equal(t, http.StatusOK, code, body)
	var eps []episode
	require.NoError(t, json.Unmarshal([]byte(body), &eps))
	require.Len(t, eps, count)
	for i, ep := range eps {
		require.Equal(t, names(tk, programs[i*T:i*T+results[i].Steps]), ep.Program, "episode %d", i)
		require.Equal(t, names(tk, ins[i].Context[:ins[i].NContext]), ep.Context)
		require.Equal(t, results[i].Correct, ep.Correct)
		require.Equal(t, results[i].Reward, ep.Reward)

		ctx, err := json.Marshal(ins[i].Context[:ins[i].NContext])
		require.NoError(t, err)
		code, body := post(t, srv, "/act", `{"level":1,"context":`+string(ctx)+`}`)
		require.Equal(t, http.StatusOK, code, body)
		var a actReply
		require.NoError(t, json.Unmarshal([]byte(body), &a))
		require.Equal(t, programs[i*T:i*T+len(a.IDs)], a.IDs, "episode %d", i)
		require.Equal(t, ep.Program[:len(a.Tokens)], a.Tokens)
		require.Len(t, a.Values, len(a.IDs))
	}
}

// TestServerRefusesBadRequests: a bad body or request is a 400 with one
// line saying why, and the server goes on serving.
func TestServerRefusesBadRequests(t *testing.T) {
	srv, _ := serve(t)
	long := strings.Repeat("1,", task.MaxContext) + "1"
	for _, c := range []struct{ path, body, says string }{
		{"/act", `{"level":`, "unexpected EOF"},
		{"/act", `not json`, "the body is not JSON"},
		{"/act", `{"levle":0}`, `unknown field "levle"`},
		{"/act", `{"level":9,"context":[1]}`, "level 9"},
		{"/act", `{"level":0,"context":[99]}`, "context token 99"},
		{"/act", `{"level":0,"context":[` + long + `]}`, "a context of 129 tokens"},
		{"/act", `{"level":0,"context":[1],"observations":[0]}`, "observes nothing"},
		{"/play", `{"level":0,"count":0}`, "count 0"},
		{"/play", `{"level":-1,"count":1}`, "level -1"},
	} {
		code, body := post(t, srv, c.path, c.body)
		require.Equal(t, http.StatusBadRequest, code, c.body)
		require.Contains(t, body, c.says, c.body)
		require.Equal(t, 1, strings.Count(body, "\n"), c.body)
	}
	code, _ := post(t, srv, "/play", `{"level":0,"count":1}`)
	require.Equal(t, http.StatusOK, code)
}

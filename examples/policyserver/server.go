package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/simdrl/simdrl/policy"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// maxPlay bounds one /play request's episodes, so that no request holds the
// server for long.
const maxPlay = 1000

// newServer is the HTTP handler of p: GET /, POST /act and POST /play. Any
// number of requests run at once; they share p, which is safe for that.
func newServer(p *policy.Policy) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { reply(w, describe(p)) })
	mux.HandleFunc("POST /act", func(w http.ResponseWriter, r *http.Request) {
		var req actRequest
		if !decode(w, r, &req) {
			return
		}
		res, err := act(p, &req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply(w, res)
	})
	mux.HandleFunc("POST /play", func(w http.ResponseWriter, r *http.Request) {
		var req playRequest
		if !decode(w, r, &req) {
			return
		}
		res, err := play(p, &req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		reply(w, res)
	})
	return mux
}

// info is GET /'s reply.
type info struct {
	Task         string   `json:"task"`
	Steps        int      `json:"steps"`
	Levels       []string `json:"levels"`
	Tokens       []string `json:"tokens"` // by id
	Observations int      `json:"observations"`
}

func describe(p *policy.Policy) info {
	t := p.Task()
	in := info{Task: t.Name(), Steps: p.Steps(), Observations: p.Observations()}
	for _, l := range t.Levels() {
		in.Levels = append(in.Levels, l.Name)
	}
	for tok := range p.Vocab() {
		in.Tokens = append(in.Tokens, t.TokenName(int32(tok)))
	}
	return in
}

// actRequest is an episode played step by step on a context: the policy's
// own tokens fed back, with the given observations for a task that
// observes (one per step, the first the task's Reset's).
type actRequest struct {
	Level        int32   `json:"level"`
	Context      []int32 `json:"context"`
	Observations []int32 `json:"observations"`
	Sample       bool    `json:"sample"`
	Seed         uint64  `json:"seed"`
}

// actReply is the episode's tokens, by name and id, and each step's value.
type actReply struct {
	Tokens []string  `json:"tokens"`
	IDs    []int32   `json:"ids"`
	Values []float32 `json:"values"`
}

// act plays req's episode: up to the task's answer token or the rollout's
// end, or, for a task that observes, one step per observation given.
func act(p *policy.Policy, req *actRequest) (*actReply, error) {
	t := p.Task()
	if len(req.Context) > task.MaxContext {
		return nil, fmt.Errorf("a context of %d tokens (at most %d)", len(req.Context), task.MaxContext)
	}
	steps := p.Steps()
	if p.Observations() > 0 {
		if len(req.Observations) == 0 || len(req.Observations) > steps {
			return nil, fmt.Errorf("the %s task observes: give 1 to %d observations, one per step", t.Name(), steps)
		}
		steps = len(req.Observations)
	} else if len(req.Observations) > 0 {
		return nil, fmt.Errorf("the %s task observes nothing: give no observations", t.Name())
	}
	in := task.Instance{Level: req.Level, NContext: int32(len(req.Context))}
	copy(in.Context[:], req.Context)
	s := p.Session()
	defer s.Release()
	if err := s.Start(&in, policy.Pick{Sample: req.Sample, Seed: req.Seed}); err != nil {
		return nil, err
	}
	res := &actReply{}
	for step := range steps {
		obs := task.NoObservation
		if len(req.Observations) > 0 {
			obs = req.Observations[step]
		}
		a, err := s.Act(obs)
		if err != nil {
			return nil, err
		}
		res.Tokens, res.IDs, res.Values = append(res.Tokens, t.TokenName(a)), append(res.IDs, a), append(res.Values, s.Value())
		if a == t.Answer() {
			break
		}
	}
	return res, nil
}

// playRequest is count instances of level that the task draws (held out,
// from the stream of seed, numbers first…first+count−1), played whole.
type playRequest struct {
	Level int    `json:"level"`
	First uint32 `json:"first"`
	Count int    `json:"count"`
	Seed  uint64 `json:"seed"`
}

// episode is one instance played: its context, its program up to its end
// and what the task made of it.
type episode struct {
	Context []string `json:"context"`
	Program []string `json:"program"`
	Reward  float64  `json:"reward"`
	Correct bool     `json:"correct"`
}

func play(p *policy.Policy, req *playRequest) ([]episode, error) {
	t := p.Task()
	switch {
	case req.Level < 0 || req.Level >= len(t.Levels()):
		return nil, fmt.Errorf("level %d: the %s task has levels 0..%d", req.Level, t.Name(), len(t.Levels())-1)
	case req.Count < 1 || req.Count > maxPlay:
		return nil, fmt.Errorf("count %d: play 1 to %d episodes", req.Count, maxPlay)
	case task.Items(t, req.Level, task.HeldOut) == 0:
		return nil, fmt.Errorf("level %d has no held-out instances", req.Level)
	}
	ins := make([]task.Instance, req.Count)
	for i := range ins {
		ins[i] = t.Draw(rng.NewKey(req.Seed), 0, req.First+uint32(i), rng.PurposeEval, req.Level, task.HeldOut)
	}
	T := p.Steps()
	programs := make([]int32, len(ins)*T)
	results := make([]policy.Result, len(ins))
	if err := p.Play(ins, programs, results); err != nil {
		return nil, err
	}
	out := make([]episode, len(ins))
	for i, r := range results {
		out[i] = episode{Context: names(t, ins[i].Context[:ins[i].NContext]), Program: names(t, programs[i*T:i*T+r.Steps]), Reward: r.Reward, Correct: r.Correct}
	}
	return out, nil
}

func names(t task.Task, toks []int32) []string {
	s := make([]string, len(toks))
	for i, tok := range toks {
		s[i] = t.TokenName(tok)
	}
	return s
}

// decode reads the request's JSON body into v, refusing unknown fields
// and a body of more than 1 MiB: false (and a 400 written) when it does not.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	d := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		var syntax *json.SyntaxError
		msg := err.Error()
		if errors.As(err, &syntax) {
			msg = "the body is not JSON: " + msg
		}
		http.Error(w, msg, http.StatusBadRequest)
		return false
	}
	return true
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v) // a client gone away is not the server's error
}

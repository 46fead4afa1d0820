package policy

import (
	"errors"
	"fmt"
	"math"

	"github.com/simdrl/simdrl/gru"
	"github.com/simdrl/simdrl/rng"
	"github.com/simdrl/simdrl/task"
)

// Pick says how a Session picks its tokens. The zero Pick is greedy (the
// argmax, as evaluations play). Sample draws from the policy with the
// counter-based stream (Seed, Round, Episode): the same three give the same
// tokens on any machine and in any goroutine, and they are the uniforms the
// engines draw for episode Episode of update Round of a run of -seed Seed.
type Pick struct {
	Sample  bool
	Seed    uint64
	Round   uint32
	Episode uint32
}

// ErrBudget is Act's error once an episode has played Policy.Steps tokens:
// the model holds no state past its rollout's length.
var ErrBudget = errors.New("policy: the episode has played every step of its rollout (Policy.Steps)")

// Session is one episode's state: the model's hidden state and the tokens
// so far. Start begins an episode, then Act gives each step's token. A
// Session is used by one goroutine at a time; it can play any number of
// episodes, one after the other, allocating nothing.
type Session struct {
	p       *Policy
	ws      *gru.Workspace
	ctx     [gru.MaxContext]int32
	next    int // the step Act plays next; −1 before Start
	mode    gru.Mode
	stream  gru.Stream
	started bool
	// legalSet: Legal set the mask of the next step (mask.go).
	legalSet bool
}

// NewSession allocates a session of p (Session and Release pool them).
func (p *Policy) NewSession() *Session {
	ws, err := gru.NewWorkspace(p.layout, 1, p.cfg.Steps)
	if err != nil { // the configuration was validated: Steps ≥ 1
		panic(err)
	}
	return &Session{p: p, ws: ws, next: -1}
}

// Session takes a session from p's pool (a new one when it is empty);
// Release returns it.
func (p *Policy) Session() *Session {
	if s, ok := p.sessions.Get().(*Session); ok {
		return s
	}
	return p.NewSession()
}

// Release returns s to its policy's pool; s must not be used afterwards.
func (s *Session) Release() {
	s.next, s.started = -1, false
	s.p.sessions.Put(s)
}

// Start begins an episode on in: its level and context (Instance.Context,
// NContext of them; the task's context end is added as the engines add it),
// picking tokens as pick says. An instance that is not one of the task's
// (task.Check), or a panic in the task's code meanwhile, is an error.
func (s *Session) Start(in *task.Instance, pick Pick) (err error) {
	defer func() { // the task's code runs here (its levels, its stages): a panic in it is its error
		if v := recover(); v != nil {
			s.next, s.started, err = -1, false, s.p.check.Panic(v)
		}
	}()
	s.next, s.started = -1, false // a refused start ends the episode before it
	t := s.p.task
	if err := task.Check(t, in); err != nil {
		return err
	}
	k := in.WriteContext(s.ctx[:], s.p.end)
	s.ws.Reset(1)
	s.ws.SetContext(0, task.Stage(t, int(in.Level)), s.ctx[:k])
	s.mode, s.stream = gru.Greedy, gru.Stream{}
	s.legalSet = false
	if pick.Sample {
		s.mode = gru.Sample
		s.stream = gru.Stream{Key: rng.NewKey(pick.Seed), Round: pick.Round, FirstEpisode: pick.Episode}
	}
	s.next, s.started = 0, true
	return nil
}

// Act plays the episode's next step and returns its token. obs is what the
// task observed since the last step: at the first step the observation
// its Env's Reset returned, after that the one its Step returned for the
// previous token (task.Transition.Obs); a task without observations
// (Policy.Observations() == 0) has none, and obs is ignored
// (task.NoObservation). The model's input is the previous token (the
// context end at the first step) with obs, as the engines feed it.
func (s *Session) Act(obs int32) (int32, error) {
	p, ws, t := s.p, s.ws, s.next
	l := p.layout
	switch {
	case p.fielded:
		return 0, fmt.Errorf("policy: the %s task has fields (task.Fielded): use ActFields", p.task.Name())
	case !s.started:
		return 0, errors.New("policy: Act before Start")
	case t >= ws.T:
		return 0, ErrBudget
	case l.Observations > 0 && (obs < 0 || int(obs) >= l.Observations):
		return 0, fmt.Errorf("policy: observation %d outside the %s task's %d observation tokens", obs, p.task.Name(), l.Observations)
	}
	if t == 0 {
		ws.Start(p.params)
	}
	in := ws.Inputs(t)
	prev := l.Start
	if t > 0 {
		prev = ws.StepActions(t - 1)[0]
	}
	in[0] = l.Input(prev, obs)
	s.allowUnlessLegal() // mask.go
	ws.Step(p.params, p.derived, t, s.mode, s.stream)
	s.next = t + 1
	return ws.StepActions(t)[0], nil
}

// Played is the number of tokens Act has returned in this episode.
func (s *Session) Played() int { return max(s.next, 0) }

// Value is the value head's estimate after the last step Act played (0
// before the first).
func (s *Session) Value() float32 {
	if s.next < 1 {
		return 0
	}
	return s.ws.Value(0, s.next-1)
}

// Probs writes the distribution the last step's token was picked from,
// one probability per token (Policy.Vocab of them), into dst and returns
// it; tokens that are never actions (task.Task.NotActions) have 0. A dst
// shorter than the vocabulary is an error; nothing is written before the
// first step.
func (s *Session) Probs(dst []float32) ([]float32, error) {
	V := s.p.layout.Vocab
	switch {
	case len(dst) < V:
		return nil, fmt.Errorf("policy: Probs needs room for %d tokens, got %d", V, len(dst))
	case s.next < 1:
		return nil, errors.New("policy: Probs before the first step")
	}
	for a := range V {
		dst[a] = float32(math.Exp(float64(s.ws.LogpOf(0, s.next-1, int32(a)))))
	}
	return dst[:V], nil
}

package gru

import (
	"fmt"
	"math"

	"github.com/simdrl/simdrl/rng"
)

// Config sizes the model.
type Config struct {
	Vocab  int // tokens (the task's: 18 for seed, 19 for calc)
	Hidden int // d (96)
	Levels int // level embeddings (the task's levels: 3 for seed, 6 for calc by default)
	// NotActions are tokens the policy never writes (a task's context
	// digits): their logits get NotActionLogit, so their probability is 0.
	NotActions []int32
	// Observations is the size of the task's observation vocabulary (0:
	// none). With O > 0 the input at step t is emb[a] + obs_emb[o], the
	// previous action and the observation the task returned after it, as
	// one input token a·O+o (Layout.Input).
	Observations int
	// Read makes the GRU read the context (see Workspace.Start): h0 =
	// tanh(stage_emb[level]), then one step per context token before the
	// first action, instead of h0 = tanh(mean of emb over the context +
	// stage_emb[level]), a bag that loses the tokens' order. The tensors are
	// the same either way.
	Read bool
	// Shown is the longest context a reading layout reads, its end not
	// counted (the task's longest Level.Context, task.LongestContext): its
	// workspaces' reading steps, 0..MaxContext−1. A bag ignores it.
	Shown int
	// Fields are the sizes of the categorical fields an input carries
	// beside the action, each embedded on its own (field_emb.f), and
	// Vector the width of a float vector through a linear layer
	// (vec.weight, vec.bias): see fields.go. One field and no vector is
	// Observations (NewLayout moves it there).
	Fields []int
	Vector int
}

// Tensor names one parameter tensor in PyTorch's state_dict order.
type Tensor struct {
	Name   string
	Shape  []int
	Offset int // into the flat buffer
	Size   int
}

// Layout is the flat parameter layout: every tensor of the state_dict, in
// order, packed into one float32 buffer (and the gradient buffer alike).
type Layout struct {
	Config
	Tensors []Tensor
	Size    int
	// Start is every rollout's first input (Workspace.Start): the task's
	// context end (task.ContextEnd). NewLayout sets DefaultStart;
	// SetStart another.
	Start int32

	Emb, LevelEmb, WIH, WHH, BIH, BHH, PiW, PiB, VW, VB Tensor
	// ObsEmb is obs_emb.weight (O×d), last in the state_dict so that a
	// model without observations keeps its layout; zero Size when O = 0.
	ObsEmb Tensor
	// FieldEmb spans every field_emb.f.weight, adjacent (Σ O_f × d), and
	// VecW, VecB are the vector's layer (d×F, d), after ObsEmb; zero Size
	// without fields or a vector.
	FieldEmb, VecW, VecB Tensor
}

// DefaultStart is the first input of a layout NewLayout makes: task.CTX,
// token 10, the seed's and calc's context end.
const DefaultStart = 10

// NewLayout lays out the parameters of a model of the given size; its rollouts
// start at DefaultStart (SetStart changes it).
func NewLayout(c Config) (*Layout, error) {
	if err := normaliseFields(&c); err != nil {
		return nil, err
	}
	if c.Vocab < 2 || c.Hidden < 1 || c.Levels < 1 {
		return nil, fmt.Errorf("gru: invalid model size vocab=%d hidden=%d levels=%d", c.Vocab, c.Hidden, c.Levels)
	}
	if c.Observations < 0 || c.Observations > MaxObservations {
		return nil, fmt.Errorf("gru: %d observations (0..%d)", c.Observations, MaxObservations)
	}
	if c.Observations > 0 && c.Vocab*c.Observations > MaxInputRows {
		return nil, fmt.Errorf("gru: %d tokens × %d observations is %d input rows (at most %d)",
			c.Vocab, c.Observations, c.Vocab*c.Observations, MaxInputRows)
	}
	if c.Shown < 0 || c.Shown > MaxContext-1 {
		return nil, fmt.Errorf("gru: contexts of %d tokens (0..%d)", c.Shown, MaxContext-1)
	}
	V, d, S := c.Vocab, c.Hidden, c.Levels
	for _, tok := range c.NotActions {
		if tok < 0 || int(tok) >= c.Vocab {
			return nil, fmt.Errorf("gru: token %d outside the vocabulary of %d cannot be a non-action", tok, c.Vocab)
		}
	}
	l := &Layout{Config: c, Start: DefaultStart}
	add := func(name string, shape ...int) Tensor {
		n := 1
		for _, s := range shape {
			n *= s
		}
		t := Tensor{Name: name, Shape: shape, Offset: l.Size, Size: n}
		l.Tensors = append(l.Tensors, t)
		l.Size += n
		return t
	}
	l.Emb = add("emb.weight", V, d)
	l.LevelEmb = add("stage_emb.weight", S, d)
	l.WIH = add("rnn.weight_ih_l0", 3*d, d)
	l.WHH = add("rnn.weight_hh_l0", 3*d, d)
	l.BIH = add("rnn.bias_ih_l0", 3*d)
	l.BHH = add("rnn.bias_hh_l0", 3*d)
	l.PiW = add("pi.weight", V, d)
	l.PiB = add("pi.bias", V)
	l.VW = add("v.weight", 1, d)
	l.VB = add("v.bias", 1)
	if c.Observations > 0 {
		l.ObsEmb = add("obs_emb.weight", c.Observations, d)
	}
	l.addFieldTensors(add)
	return l, nil
}

// MaxObservations bounds a task's observation vocabulary, and MaxInputRows
// the input table (V·O rows), so that no task can make the table absurd.
const (
	MaxObservations = 1 << 16
	MaxInputRows    = 1 << 20
)

// InputRows is the number of distinct inputs, the rows of the token table
// (Derived.Table): V, or V·O with observations.
func (l *Layout) InputRows() int {
	if l.Observations > 0 {
		return l.Vocab * l.Observations
	}
	return l.Vocab
}

// Input is the input token of action a followed by observation o: a when
// the layout observes nothing (o is ignored), else a·O+o. The caller checks
// that a and o are in range (an Env's observation is checked by the engine).
func (l *Layout) Input(a, o int32) int32 {
	if l.Observations > 0 {
		return a*int32(l.Observations) + o
	}
	return a
}

// SetStart makes tok every rollout's first input (Layout.Start): the task's
// context end, one of the vocabulary's tokens.
func (l *Layout) SetStart(tok int32) error {
	if tok < 0 || int(tok) >= l.Vocab {
		return fmt.Errorf("gru: first input %d outside the vocabulary of %d tokens", tok, l.Vocab)
	}
	l.Start = tok
	return nil
}

// embeddings is emb.weight and stage_emb.weight of buf as one (V+S)×d
// matrix: they are adjacent in the state_dict order.
func (l *Layout) embeddings(buf []float32) []float32 {
	return buf[l.Emb.Offset : l.LevelEmb.Offset+l.LevelEmb.Size]
}

// View returns tensor t's slice of a flat buffer.
func (t Tensor) View(buf []float32) []float32 { return buf[t.Offset : t.Offset+t.Size] }

// Init fills params as PyTorch initialises the seed's modules: embeddings
// (obs_emb too) N(0,1); GRU weights and biases U(−1/√d, 1/√d); Linear weights and biases
// U(−1/√fan_in, 1/√fan_in) (kaiming_uniform with a=√5 gives the same bound).
// The numbers come from the counter-based stream of seed, so they do not
// equal torch.manual_seed's, only their distribution does.
func (l *Layout) Init(params []float32, seed uint64) {
	key := rng.NewKey(seed)
	const purposeInit rng.Purpose = 100
	draw := func(t Tensor, f func(w [4]uint32) float32) {
		v := t.View(params)
		for i := range v {
			v[i] = f(key.Block(uint32(t.Offset), uint32(i), 0, purposeInit))
		}
	}
	unit := func(w uint32) float64 { return (float64(w>>8) + 0.5) / (1 << 24) } // (0,1)
	normal := func(w [4]uint32) float32 {                                       // Box–Muller
		return float32(math.Sqrt(-2*math.Log(unit(w[0]))) * math.Cos(2*math.Pi*unit(w[1])))
	}
	uniform := func(bound float64) func(w [4]uint32) float32 {
		return func(w [4]uint32) float32 { return float32((2*unit(w[0]) - 1) * bound) }
	}
	b := 1 / math.Sqrt(float64(l.Hidden))
	draw(l.Emb, normal)
	draw(l.LevelEmb, normal)
	for _, t := range []Tensor{l.WIH, l.WHH, l.BIH, l.BHH, l.PiW, l.PiB, l.VW, l.VB} {
		draw(t, uniform(b))
	}
	draw(l.ObsEmb, normal) // an embedding like emb; keyed by its offset, so the others are as without it
	draw(l.FieldEmb, normal)
	if l.Vector > 0 {
		bv := 1 / math.Sqrt(float64(l.Vector))
		draw(l.VecW, uniform(bv))
		draw(l.VecB, uniform(bv))
	}
}

package gru

import (
	"fmt"

	"github.com/simdrl/simdrl/rng"
)

// MaxContext is the longest context a workspace accepts (the shown tokens
// plus the task's context end: task.MaxContext+1; the calc task shows up to 8
// digits, the expr task up to 21 tokens of its expression, the tape task up
// to 4·32−5 = 123). A reading layout takes at most Config.Shown tokens and the end.
const MaxContext = 129

// Mode says how a rollout picks each action.
type Mode int

const (
	Sample  Mode = iota // draw from the policy with the counter-based stream
	Greedy              // argmax of the logits
	Teacher             // take the actions already written with SetAction
)

// Workspace is one chunk's memory: the inputs, every activation backward
// needs, and the backward scratch. It is allocated once for at most Cap
// episodes of T steps; Forward and Backward then allocate nothing.
//
// Per-step blocks are packed for the chunk's current row count n, step after
// step, so that the weight gradients over all T steps are single GEMMs with
// k = T·n.
type Workspace struct {
	l   *Layout
	Cap int
	T   int
	n   int // rows of the current chunk
	// next is the step Step runs next (Start sets 0); −1 until Start.
	next int

	// reading is the chunk's reading steps R (Config.Read: its longest
	// context's tokens but the end; 0 for a bag). The per-step blocks below
	// are the tails, past the R reading steps, of the *All blocks, which a
	// reading layout allocates Config.Shown steps longer.
	reading   int
	inputsAll []int32
	hAll      []float32
	ghAll     []float32
	actAll    []float32
	dghAll    []float32
	ctx       []int32   // Cap×MaxContext context tokens
	ctxLen    []int32   // Cap
	level     []int32   // Cap
	mix       []float32 // Cap×(V+S): h0's weights on [emb; stage_emb] (see initialState)

	// inputs and actions are apart, so that an engine can feed the policy
	// something other than its own action (an observation) at the next step.
	inputs  []int32   // T×n inputs (Layout.Input): the layout's Start, then what the engine sets
	actions []int32   // T×n actions
	h       []float32 // (T+1)×n×d hidden states, h[0] = h0
	gh      []float32 // T×n×3d   W_hh·h + b_hh
	act     []float32 // T×n×3d   r, z, n
	heads   []float32 // T×n×(V+1) logits and value
	logp    []float32 // T×n×V
	ent     []float32 // T×n
	u       []float32 // n uniforms for one sampling step
	probs   []float32 // n×V probabilities for one sampling step
	ones    []float32 // T·Cap ones: column sums as GEMMs

	// Loss weights, written by the trainer before Backward: dL/dlogp(action),
	// dL/dentropy and dL/dvalue for every (step, episode), T×n each.
	DLogp, DEnt, DValue []float32

	dheads  []float32 // T×n×(V+1)
	dh      []float32 // n×d
	dhPrev  []float32 // n×d
	dHeadsW []float32 // (V+1)×d
	bias    []float32 // column sums: max(3d, V+1)

	stop stopBuffers  // rollouts that stop (Retire)
	fb   fieldBuffers // inputs with fields (fields.go)

	legal []bool // Cap×V legal-action mask of the next Step (mask.go); nil: none
}

// readSteps is the most reading steps a chunk of layout l has: its longest
// context but the end (Config.Shown) when it reads (Config.Read), else 0.
func readSteps(l *Layout) int {
	if l.Read {
		return l.Shown
	}
	return 0
}

// NewWorkspace allocates a workspace for chunks of up to capacity episodes of
// steps tokens.
func NewWorkspace(l *Layout, capacity, steps int) (*Workspace, error) {
	if capacity < 1 || steps < 1 {
		return nil, fmt.Errorf("gru: workspace needs capacity ≥ 1 and steps ≥ 1, got %d and %d", capacity, steps)
	}
	V, d, C, T := l.Vocab, l.Hidden, capacity, steps
	R := readSteps(l) // the reading steps go first in the per-step blocks
	w := &Workspace{
		l: l, Cap: C, T: T, next: -1,
		ctx: make([]int32, C*MaxContext), ctxLen: make([]int32, C), level: make([]int32, C),
		mix:       make([]float32, C*(V+l.Levels)),
		inputsAll: make([]int32, (R+T)*C), actions: make([]int32, T*C),
		hAll:   make([]float32, (R+T+1)*C*d),
		ghAll:  make([]float32, (R+T)*C*3*d),
		actAll: make([]float32, (R+T)*C*3*d),
		heads:  make([]float32, T*C*(V+1)),
		logp:   make([]float32, T*C*V),
		ent:    make([]float32, T*C),
		u:      make([]float32, C),
		probs:  make([]float32, C*V),
		ones:   ones(max((R+T)*C, V)),
		DLogp:  make([]float32, T*C), DEnt: make([]float32, T*C), DValue: make([]float32, T*C),
		dheads:  make([]float32, T*C*(V+1)),
		dghAll:  make([]float32, (R+T)*C*3*d),
		dh:      make([]float32, C*d),
		dhPrev:  make([]float32, C*d),
		dHeadsW: make([]float32, (V+1)*d),
		bias:    make([]float32, max(3*d, V+1)), // column sums of dgh (3d) and of the heads (V+1)
	}
	w.stop = newStopBuffers(l, C, T)
	w.fb = newFieldBuffers(l, C, T)
	w.setReading(0)
	return w, nil
}

// setReading makes the per-step blocks start after r reading steps of the
// chunk's n rows.
func (w *Workspace) setReading(r int) {
	n, d := w.n, w.l.Hidden
	w.reading = r
	w.inputs = w.inputsAll[r*n:]
	w.h = w.hAll[r*n*d:]
	w.gh = w.ghAll[r*n*3*d:]
	w.act = w.actAll[r*n*3*d:]
}

// WorkspaceBytes is what NewWorkspace(l, capacity, steps) allocates, computed
// in float64 so that absurd sizes are estimated instead of overflowing
// (a configuration is checked against memory before anything is allocated).
func WorkspaceBytes(l *Layout, capacity, steps int) float64 {
	V, S, d, C, T := float64(l.Vocab), float64(l.Levels), float64(l.Hidden), float64(capacity), float64(steps)
	R := float64(readSteps(l))
	words := C*MaxContext + 2*C + C*(V+S) + (R+T)*C + T*C + // ctx, ctxLen, level, mix, inputs, actions
		(R+T+1)*C*d + 2*(R+T)*C*3*d + T*C*(V+1) + T*C*V + T*C + C + C*V + // h, gh, act, heads, logp, ent, u, probs
		max((R+T)*C, V) + 3*T*C + // ones, DLogp, DEnt, DValue
		T*C*(V+1) + (R+T)*C*3*d + 2*C*d + (V+1)*d + max(3*d, V+1) // dheads, dgh, dh, dhPrev, dHeadsW, bias
	words += stopBufferWords(l, capacity, steps) + fieldBufferWords(l, capacity, steps)
	return 4 * words // every element is 4 bytes (float32 or int32)
}

// Reset starts a chunk of n episodes (1 ≤ n ≤ Cap).
func (w *Workspace) Reset(n int) {
	if n < 1 || n > w.Cap {
		panic(fmt.Sprintf("gru: chunk of %d episodes in a workspace of %d", n, w.Cap))
	}
	w.n = n
	w.next = -1
	w.setReading(0)
}

// Rows is the current chunk's episode count.
func (w *Workspace) Rows() int { return w.n }

// SetContext sets episode b's level and context tokens (the shown tokens then
// the task's context end, task.Instance.Context), at most Config.Shown
// shown tokens for a reading layout.
func (w *Workspace) SetContext(b, level int, tokens []int32) {
	most := MaxContext
	if w.l.Read {
		most = w.l.Shown + 1 // the reading steps allocated (readSteps), then the end
	}
	if len(tokens) < 1 || len(tokens) > most {
		panic(fmt.Sprintf("gru: context of %d tokens (1..%d)", len(tokens), most))
	}
	if level < 0 || level >= w.l.Levels {
		panic(fmt.Sprintf("gru: level %d outside 0..%d", level, w.l.Levels-1))
	}
	for _, t := range tokens {
		if t < 0 || int(t) >= w.l.Vocab {
			panic(fmt.Sprintf("gru: context token %d outside the vocabulary", t))
		}
	}
	copy(w.ctx[b*MaxContext:], tokens)
	w.ctxLen[b] = int32(len(tokens))
	w.level[b] = int32(level)
	// h0's pre-activation is row b of mix·[emb; stage_emb]: 1/len on every
	// context token (repeats add up) and 1 on the level; the level only when
	// the layout reads the tokens instead (Config.Read).
	V, S := w.l.Vocab, w.l.Levels
	row := w.mix[b*(V+S) : (b+1)*(V+S)]
	clear(row)
	if !w.l.Read {
		inv := 1 / float32(len(tokens))
		for _, t := range tokens {
			row[t] += inv
		}
	}
	row[V+level] = 1
}

// SetAction fixes episode b's action at step t for a Teacher rollout.
func (w *Workspace) SetAction(b, t int, a int32) { w.actions[t*w.n+b] = a }

// Action is episode b's action at step t.
func (w *Workspace) Action(b, t int) int32 { return w.actions[t*w.n+b] }

// Actions is the T×n block of actions, step-major.
func (w *Workspace) Actions() []int32 { return w.actions[:w.T*w.n] }

// StepActions is the chunk's n actions at step t (Step writes them; a
// Teacher rollout reads them).
func (w *Workspace) StepActions(t int) []int32 { return w.actions[t*w.n : (t+1)*w.n] }

// Inputs is the chunk's n inputs at step t, each a token or, with
// observations, Layout.Input(token, observation): Start writes step 0's
// (the layout's Start); the engine writes step t's before Step(t), t ≥ 1.
func (w *Workspace) Inputs(t int) []int32 { return w.inputs[t*w.n : (t+1)*w.n] }

// Logp is log π(action) of episode b at step t (0 at a step it was
// retired from, see Retire).
func (w *Workspace) Logp(b, t int) float32 {
	i := w.index(b, t)
	if i < 0 {
		return 0
	}
	return w.logp[i*w.l.Vocab+int(w.Action(b, t))]
}

// LogpOf is log π(a) of episode b at step t, for any action a (0 at a
// retired step).
func (w *Workspace) LogpOf(b, t int, a int32) float32 {
	i := w.index(b, t)
	if i < 0 {
		return 0
	}
	return w.logp[i*w.l.Vocab+int(a)]
}

// Entropy is the seed's policy entropy of episode b at step t (0 at a
// retired step).
func (w *Workspace) Entropy(b, t int) float32 {
	i := w.index(b, t)
	if i < 0 {
		return 0
	}
	return w.ent[i]
}

// Value is the value head's output for episode b at step t (0 at a retired
// step).
func (w *Workspace) Value(b, t int) float32 {
	i := w.index(b, t)
	if i < 0 {
		return 0
	}
	V := w.l.Vocab
	return w.heads[i*(V+1)+V]
}

// GreedyAction is the argmax of episode b's logits at step t (0 at a retired
// step).
func (w *Workspace) GreedyAction(b, t int) int32 {
	i := w.index(b, t)
	if i < 0 {
		return 0
	}
	V := w.l.Vocab
	row := w.heads[i*(V+1) : i*(V+1)+V]
	best := 0
	for j, v := range row {
		if v > row[best] {
			best = j
		}
	}
	return int32(best)
}

// Stream names the random numbers a Sample rollout draws: episode b of the
// chunk uses (Round, FirstEpisode+b, step, PurposeAction).
type Stream struct {
	Key          rng.Key
	Round        uint32
	FirstEpisode uint32
	// Temperature, when positive and not 1, samples from softmax(z/T) of
	// the logits z (the sampled evaluation's); the log probabilities and
	// the entropy stay the policy's own. 0: T = 1, training's.
	Temperature float32
}

func ones(n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

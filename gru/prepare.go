package gru

import "github.com/simdrl/simdrl/kernels"

// Derived holds tensors derived from the parameters once per update and shared
// by every chunk: the GRU's input gates for every token (the input to the
// GRU is always a token embedding, so W_ih·emb[tok] + b_ih is a V×3d table),
// and the policy and value heads stacked into one (V+1)×d matrix so that a
// single GEMM computes both.
type Derived struct {
	Table     []float32 // V×3d: emb·W_ihᵀ + b_ih
	HeadsW    []float32 // (V+1)×d: pi.weight rows, then v.weight
	HeadsBias []float32 // V+1:     pi.bias, then v.bias
}

// NotActionLogit is added to the logit of a token that is not an action:
// exp of it underflows to 0 in float32, so the token is never sampled or
// chosen, adds nothing to the entropy and gets no gradient, while its log
// probability stays finite.
const NotActionLogit = -1e4

// NewDerived allocates the derived tensors for layout l.
func NewDerived(l *Layout) *Derived {
	V, d := l.Vocab, l.Hidden
	return &Derived{
		Table:     make([]float32, V*3*d),
		HeadsW:    make([]float32, (V+1)*d),
		HeadsBias: make([]float32, V+1),
	}
}

// Compute refreshes the derived tensors from params. Call it after every
// parameter change, before any Forward.
func (dv *Derived) Compute(l *Layout, params []float32) {
	V, d := l.Vocab, l.Hidden
	bih := l.BIH.View(params)
	for v := 0; v < V; v++ {
		copy(dv.Table[v*3*d:(v+1)*3*d], bih)
	}
	kernels.SgemmNT(V, 3*d, d, 1, l.Emb.View(params), d, l.WIH.View(params), d, 1, dv.Table, 3*d)
	copy(dv.HeadsW, l.PiW.View(params))
	copy(dv.HeadsW[V*d:], l.VW.View(params))
	copy(dv.HeadsBias, l.PiB.View(params))
	for _, tok := range l.NotActions {
		dv.HeadsBias[tok] += NotActionLogit
	}
	dv.HeadsBias[V] = l.VB.View(params)[0]
}

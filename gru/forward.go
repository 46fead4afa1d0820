package gru

import (
	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/rng"
)

// ctxToken is the seed's CTX, the policy's first input.
const ctxToken = 10

// Forward rolls the chunk out for T steps from the contexts set with
// SetContext: h0 = tanh(mean(emb[ctx]) + stage_emb[stage]) per episode (the
// seed's intent; its own line broadcasts to (B,B,d) and mixes the batch), first
// input CTX, then each step's action fed back as the next input.
func (w *Workspace) Forward(params []float32, dv *Derived, mode Mode, s Stream) {
	l, n, T := w.l, w.n, w.T
	V, d := l.Vocab, l.Hidden
	w.initialState(params)
	for b := 0; b < n; b++ {
		w.tokens[b] = ctxToken
	}
	whh := l.WHH.View(params)
	bhh := l.BHH.View(params)
	for t := 0; t < T; t++ {
		hPrev := w.h[t*n*d : (t+1)*n*d]
		hNext := w.h[(t+1)*n*d : (t+2)*n*d]
		gh := w.gh[t*n*3*d : (t+1)*n*3*d]
		act := w.act[t*n*3*d : (t+1)*n*3*d]
		heads := w.heads[t*n*(V+1) : (t+1)*n*(V+1)]
		logp := w.logp[t*n*V : (t+1)*n*V]
		in := w.tokens[t*n : (t+1)*n]
		out := w.tokens[(t+1)*n : (t+2)*n]

		fillRows(gh, n, bhh)
		kernels.SgemmNT(n, 3*d, d, 1, hPrev, d, whh, d, 1, gh, 3*d)
		kernels.GRUForward(n, d, dv.Table, in, gh, hPrev, hNext, act)
		fillRows(heads, n, dv.HeadsBias)
		kernels.SgemmNT(n, V+1, d, 1, hNext, d, dv.HeadsW, d, 1, heads, V+1)
		kernels.PolicyForward(n, V, heads, V+1, logp, w.ent[t*n:(t+1)*n])
		switch mode {
		case Greedy:
			kernels.ArgmaxRows(n, V, heads, V+1, out)
		case Sample:
			for b := 0; b < n; b++ {
				w.u[b] = s.Key.Uniform(s.Round, s.FirstEpisode+uint32(b), uint32(t), rng.PurposeAction)
			}
			kernels.Exp(w.probs[:n*V], logp)
			kernels.SampleRows(n, V, w.probs[:n*V], w.u[:n], out)
		case Teacher:
			for _, a := range out {
				if a < 0 || int(a) >= V {
					panic("gru: teacher action outside the vocabulary")
				}
			}
		}
	}
}

// initialState writes h0 = tanh(mean of emb over the context + stage_emb)
// for the whole chunk as one GEMM, mix·[emb; stage_emb], then tanh.
func (w *Workspace) initialState(params []float32) {
	l, n, d := w.l, w.n, w.l.Hidden
	k := l.Vocab + l.Stages
	kernels.SgemmNN(n, d, k, 1, w.mix[:n*k], k, l.embeddings(params), d, 0, w.h[:n*d], d)
	kernels.Tanh(w.h[:n*d])
}

// fillRows copies row into each of the n rows of m (packed, len(row) wide).
func fillRows(m []float32, n int, row []float32) {
	c := len(row)
	for i := 0; i < n; i++ {
		copy(m[i*c:(i+1)*c], row)
	}
}

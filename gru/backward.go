package gru

import (
	"fmt"

	"github.com/simdrl/simdrl/kernels"
)

// Backward propagates the loss weights in DLogp, DEnt and DValue back through
// the T steps of the last rollout (Forward, or Start and every Step), and
// through a reading layout's reading steps to h0. It ADDS the gradient of every parameter
// into grad (same layout as params), except the part that flows through the
// token table (W_ih, b_ih and the embeddings' input role): that gradient,
// dL/dtable (V×3d), is ADDED to dTable (a TableGradient's Buffer), to be
// applied once per update by TableGradient.Apply however many chunks the
// update has. dv must be the
// Derived that Forward used.
func (w *Workspace) Backward(params []float32, dv *Derived, grad, dTable []float32) {
	l, n, T := w.l, w.n, w.T
	V, d := l.Vocab, l.Hidden
	if w.next != T {
		panic(fmt.Sprintf("gru: Backward after %d of %d steps", max(w.next, 0), T))
	}
	whh := l.WHH.View(params)
	dh, dhPrev := w.dh[:n*d], w.dhPrev[:n*d]
	clear(dh)
	for t := T - 1; t >= 0; t-- {
		dheads := w.dheads[t*n*(V+1) : (t+1)*n*(V+1)]
		kernels.PolicyBackward(n, V, w.logp[t*n*V:(t+1)*n*V], w.actions[t*n:(t+1)*n],
			w.DLogp[t*n:(t+1)*n], w.DEnt[t*n:(t+1)*n], dheads, V+1)
		for b, g := range w.DValue[t*n : (t+1)*n] {
			dheads[b*(V+1)+V] = g
		}
		// dh' gets the heads' share on top of what flowed back from step t+1.
		kernels.SgemmNN(n, d, V+1, 1, dheads, V+1, dv.HeadsW, d, 1, dh, d)
		dgh := w.dgh[t*n*3*d : (t+1)*n*3*d]
		kernels.GRUBackward(n, d, w.inputs[t*n:(t+1)*n], w.act[t*n*3*d:(t+1)*n*3*d], w.gh[t*n*3*d:(t+1)*n*3*d],
			w.h[t*n*d:(t+1)*n*d], dh, dgh, dhPrev, dTable)
		kernels.SgemmNN(n, d, 3*d, 1, dgh, 3*d, whh, d, 1, dhPrev, d)
		dh, dhPrev = dhPrev, dh
	}
	// dh now holds dL/dh before Step(0): h0's, or the reading's last.
	w.unread(whh, dh, dhPrev, dTable)
	if w.reading%2 == 1 {
		dh = dhPrev // unread swapped them an odd number of times
	}

	// Recurrent weights over all steps at once, reading steps included:
	// dW_hh += Σ_t dgh_tᵀ·h_t.
	k := (w.reading + T) * n
	kernels.SgemmTN(3*d, d, k, 1, w.dghAll[:k*3*d], 3*d, w.hAll[:k*d], d, 1, l.WHH.View(grad), d)
	w.addColumnSums(l.BHH.View(grad), w.dghAll[:k*3*d], k)

	// Heads: d[pi;v] = Σ_t dheads_tᵀ·h_{t+1}, then split into the two layers.
	kernels.SgemmTN(V+1, d, T*n, 1, w.dheads[:T*n*(V+1)], V+1, w.h[n*d:(T+1)*n*d], d, 0, w.dHeadsW, d)
	addTo(l.PiW.View(grad), w.dHeadsW[:V*d])
	addTo(l.VW.View(grad), w.dHeadsW[V*d:])
	clear(w.bias[:V+1])
	w.addColumnSums(w.bias[:V+1], w.dheads[:T*n*(V+1)], T*n)
	addTo(l.PiB.View(grad), w.bias[:V])
	l.VB.View(grad)[0] += w.bias[V]

	// Initial state: h0 = tanh(M·[emb; stage_emb]) (see initialState), so
	// d[emb; stage_emb] += Mᵀ·(dh0 ⊙ (1 − h0²)).
	h0 := w.hAll[:n*d]
	for i, y := range h0 {
		dh[i] *= 1 - y*y
	}
	kernels.SgemmTN(V+l.Levels, d, n, 1, w.mix[:n*(V+l.Levels)], V+l.Levels, dh, d, 1, l.embeddings(grad), d)
}

// unread propagates dh back through the reading steps (Start), leaving
// dL/dh0 in dh (R even) or dhPrev (R odd). A row not reading yet at a step
// passed its h through unchanged: its dh goes through as it is, and it
// enters the GRU's backward as zero so that it adds nothing to the gates,
// W_hh or the token table.
func (w *Workspace) unread(whh, dh, dhPrev, dTable []float32) {
	n, d := w.n, w.l.Hidden
	for r := w.reading - 1; r >= 0; r-- {
		for b := 0; b < n; b++ {
			if r < w.readOffset(b) {
				copy(w.dhSave[b*d:(b+1)*d], dh[b*d:(b+1)*d])
				clear(dh[b*d : (b+1)*d])
			}
		}
		dgh := w.dghAll[r*n*3*d : (r+1)*n*3*d]
		kernels.GRUBackward(n, d, w.inputsAll[r*n:(r+1)*n], w.actAll[r*n*3*d:(r+1)*n*3*d], w.ghAll[r*n*3*d:(r+1)*n*3*d],
			w.hAll[r*n*d:(r+1)*n*d], dh, dgh, dhPrev, dTable)
		kernels.SgemmNN(n, d, 3*d, 1, dgh, 3*d, whh, d, 1, dhPrev, d)
		for b := 0; b < n; b++ {
			if r < w.readOffset(b) {
				copy(dhPrev[b*d:(b+1)*d], w.dhSave[b*d:(b+1)*d])
			}
		}
		dh, dhPrev = dhPrev, dh
	}
}

// addColumnSums adds the column sums of the rows×len(dst) packed matrix m
// to dst, as the GEMM dst += 1ᵀ·m.
func (w *Workspace) addColumnSums(dst, m []float32, rows int) {
	c := len(dst)
	kernels.SgemmTN(1, c, rows, 1, w.ones[:rows], 1, m, c, 1, dst, c)
}

func addTo(dst, src []float32) { kernels.Add(dst, src) }

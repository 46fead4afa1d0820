package gru

import "github.com/simdrl/simdrl/kernels"

// Backward propagates the loss weights in DLogp, DEnt and DValue back through
// the T steps of the last Forward and ADDS the gradient of every parameter
// into grad (same layout as params). dv must be the Derived that Forward used.
func (w *Workspace) Backward(params []float32, dv *Derived, grad []float32) {
	l, n, T := w.l, w.n, w.T
	V, d := l.Vocab, l.Hidden
	whh := l.WHH.View(params)
	clear(w.dTable)
	dh, dhPrev := w.dh[:n*d], w.dhPrev[:n*d]
	clear(dh)
	for t := T - 1; t >= 0; t-- {
		dheads := w.dheads[t*n*(V+1) : (t+1)*n*(V+1)]
		kernels.PolicyBackward(n, V, w.logp[t*n*V:(t+1)*n*V], w.tokens[(t+1)*n:(t+2)*n],
			w.DLogp[t*n:(t+1)*n], w.DEnt[t*n:(t+1)*n], dheads, V+1)
		for b, g := range w.DValue[t*n : (t+1)*n] {
			dheads[b*(V+1)+V] = g
		}
		// dh' gets the heads' share on top of what flowed back from step t+1.
		kernels.SgemmNN(n, d, V+1, 1, dheads, V+1, dv.HeadsW, d, 1, dh, d)
		dgh := w.dgh[t*n*3*d : (t+1)*n*3*d]
		kernels.GRUBackward(n, d, w.tokens[t*n:(t+1)*n], w.act[t*n*3*d:(t+1)*n*3*d], w.gh[t*n*3*d:(t+1)*n*3*d],
			w.h[t*n*d:(t+1)*n*d], dh, dgh, dhPrev, w.dTable)
		kernels.SgemmNN(n, d, 3*d, 1, dgh, 3*d, whh, d, 1, dhPrev, d)
		dh, dhPrev = dhPrev, dh
	}
	// dh now holds dL/dh0.

	// Recurrent weights over all steps at once: dW_hh += Σ_t dgh_tᵀ·h_t.
	kernels.SgemmTN(3*d, d, T*n, 1, w.dgh[:T*n*3*d], 3*d, w.h[:T*n*d], d, 1, l.WHH.View(grad), d)
	w.addColumnSums(l.BHH.View(grad), w.dgh[:T*n*3*d], T*n)

	// Heads: d[pi;v] = Σ_t dheads_tᵀ·h_{t+1}, then split into the two layers.
	kernels.SgemmTN(V+1, d, T*n, 1, w.dheads[:T*n*(V+1)], V+1, w.h[n*d:(T+1)*n*d], d, 0, w.dHeadsW, d)
	addTo(l.PiW.View(grad), w.dHeadsW[:V*d])
	addTo(l.VW.View(grad), w.dHeadsW[V*d:])
	clear(w.bias[:V+1])
	w.addColumnSums(w.bias[:V+1], w.dheads[:T*n*(V+1)], T*n)
	addTo(l.PiB.View(grad), w.bias[:V])
	l.VB.View(grad)[0] += w.bias[V]

	// Input side, through the token table: dW_ih += dTableᵀ·emb,
	// db_ih += Σ dTable, demb += dTable·W_ih.
	kernels.SgemmTN(3*d, d, V, 1, w.dTable, 3*d, l.Emb.View(params), d, 1, l.WIH.View(grad), d)
	w.addColumnSums(l.BIH.View(grad), w.dTable, V)
	kernels.SgemmNN(V, d, 3*d, 1, w.dTable, 3*d, l.WIH.View(params), d, 1, l.Emb.View(grad), d)

	// Initial state: h0 = tanh(mean emb[ctx] + stage_emb[stage]).
	gEmb, gStage := l.Emb.View(grad), l.StageEmb.View(grad)
	for b := 0; b < n; b++ {
		h0 := w.h[b*d : (b+1)*d]
		g := dh[b*d : (b+1)*d]
		for j := range g {
			g[j] *= 1 - h0[j]*h0[j]
		}
		gs := gStage[int(w.stage[b])*d : int(w.stage[b]+1)*d]
		for j, v := range g {
			gs[j] += v
		}
		k := int(w.ctxLen[b])
		inv := 1 / float32(k)
		for _, tok := range w.ctx[b*MaxContext : b*MaxContext+k] {
			ge := gEmb[int(tok)*d : int(tok+1)*d]
			for j, v := range g {
				ge[j] += v * inv
			}
		}
	}
}

// addColumnSums adds the column sums of the rows×len(dst) packed matrix m
// to dst, as the GEMM dst += 1ᵀ·m.
func (w *Workspace) addColumnSums(dst, m []float32, rows int) {
	c := len(dst)
	kernels.SgemmTN(1, c, rows, 1, w.ones[:rows], 1, m, c, 1, dst, c)
}

func addTo(dst, src []float32) { kernels.Add(dst, src) }

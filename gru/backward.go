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
	w.BackwardUntil(params, dv, grad, dTable, nil)
}

// BackwardUntil is Backward that gives up once stop is closed, so that a
// large layout answers an interrupt within a step rather than a chunk: it
// looks before each step's work (reading steps included) and before the
// weight GEMMs, and returns false when it gave up, having added part of the
// gradient to grad and dTable (the caller discards them). A nil stop never
// closes: then it is Backward, the same arithmetic.
func (w *Workspace) BackwardUntil(params []float32, dv *Derived, grad, dTable []float32, stop <-chan struct{}) bool {
	l, n, T := w.l, w.n, w.T
	V, d := l.Vocab, l.Hidden
	if w.next != T {
		panic(fmt.Sprintf("gru: Backward after %d of %d steps", max(w.next, 0), T))
	}
	live, dead := w.weightRows()
	whh := l.WHH.View(params)
	dh, dhPrev := w.dh[:n*d], w.dhPrev[:n*d]
	clear(dh)
	for t := T - 1; t >= 0; t-- {
		if closed(stop) {
			return false
		}
		if t < T-1 {
			w.widen(dh, t)
		}
		w.backStep(params, dv, t, dh, dhPrev, dTable)
		if backStepDone != nil {
			backStepDone(t)
		}
		dh, dhPrev = dhPrev, dh
	}
	// dh now holds dL/dh before Step(0): h0's, or the reading's last.
	if !w.unread(whh, dh, dhPrev, dTable, stop) || closed(stop) {
		return false
	}
	if w.reading%2 == 1 {
		dh = dhPrev // unread swapped them an odd number of times
	}

	// Recurrent weights over all steps at once, reading steps included:
	// dW_hh += Σ_t dgh_tᵀ·h_t, and b_hh's gradient, the column sums of dgh.
	// dghAll holds the live rows only (backStep, unread): all k of them
	// when no row is dead.
	k := (w.reading + T) * n
	if dead {
		kl := w.stop.dghAt[w.reading+T]
		dgh := w.dghAll[:kl*3*d]
		kernels.SgemmTNLiveRows(3*d, d, k, 1, dgh, 3*d, true, w.hAll[:k*d], d, false, 1, l.WHH.View(grad), d, live)
		kernels.SgemmTNLiveRows(1, 3*d, k, 1, w.ones[:kl], 1, true, dgh, 3*d, true, 1, l.BHH.View(grad), 3*d, live)
	} else {
		kernels.SgemmTN(3*d, d, k, 1, w.dghAll[:k*3*d], 3*d, w.hAll[:k*d], d, 1, l.WHH.View(grad), d)
		w.addColumnSums(l.BHH.View(grad), w.dghAll[:k*3*d], k)
	}

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
	return true
}

// backStepDone, when set (tests), is called after Backward's step t.
var backStepDone func(t int)

// closed reports whether c is closed: one non-blocking receive, no
// allocation, false for nil.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// widen turns dh, dL/dh_{t+1} over the rows of L_{t+1} (packed), into the
// same over L_t's: the rows retired after step t get zero (no later step
// of theirs has a loss). Both lists ascend and L_{t+1} ⊆ L_t, so a row
// moves up or stays, and going from the last row down moves each before
// its place is written.
func (w *Workspace) widen(dh []float32, t int) {
	s, n, d := &w.stop, w.n, w.l.Hidden
	m, next := s.liveN[t], s.liveN[t+1]
	if m == next {
		return
	}
	pos := s.pos[(t+1)*n : (t+2)*n]
	for i := m - 1; i >= 0; i-- {
		b := i
		if m < n {
			b = int(s.live[t*n+i])
		}
		if j := int(pos[b]); j >= 0 {
			copy(dh[i*d:(i+1)*d], dh[j*d:(j+1)*d])
		} else {
			clear(dh[i*d : (i+1)*d])
		}
	}
}

// backStep is step t of Backward on L_t's rows (Retire), dh and dhPrev
// packed in L_t's order. With every row live it runs on the full blocks in
// place; otherwise the step's actions, loss weights, inputs and h_t are
// gathered, and its head gradients are scattered into the full block, zero
// at the retired rows, for the heads' weight GEMM. Its dL/dgh goes to the
// kept live rows of dghAll (weightRows' dghAt), the full block when every
// row of every step before it lives.
func (w *Workspace) backStep(params []float32, dv *Derived, t int, dh, dhPrev, dTable []float32) {
	l, n, s := w.l, w.n, &w.stop
	V, d := l.Vocab, l.Hidden
	m := s.liveN[t]
	live := s.live[t*n : t*n+m]
	acts, dlogp, dent := w.actions[t*n:(t+1)*n], w.DLogp[t*n:(t+1)*n], w.DEnt[t*n:(t+1)*n]
	in, h := w.inputs[t*n:(t+1)*n], w.h[t*n*d:(t+1)*n*d]
	dheads := w.dheads[t*n*(V+1) : (t+1)*n*(V+1)]
	at := s.dghAt[w.reading+t]
	dgh := w.dghAll[at*3*d : (at+m)*3*d]
	packed := m < n
	if packed {
		acts, dlogp, dent = s.actsC[:m], s.dlogp[:m], s.dent[:m]
		for i, b := range live {
			acts[i], dlogp[i], dent[i] = w.actions[t*n+int(b)], w.DLogp[t*n+int(b)], w.DEnt[t*n+int(b)]
		}
		in, h = s.inC[t*n:t*n+m], s.hC[t*n*d:(t*n+m)*d]
		dheads = s.dhead[:m*(V+1)]
	}
	kernels.PolicyBackward(m, V, w.logp[t*n*V:(t*n+m)*V], acts, dlogp, dent, dheads, V+1)
	for i, b := range live {
		dheads[i*(V+1)+V] = w.DValue[t*n+int(b)]
	}
	// dh' gets the heads' share on top of what flowed back from step t+1.
	kernels.SgemmNN(m, d, V+1, 1, dheads, V+1, dv.HeadsW, d, 1, dh[:m*d], d)
	var rows []int32 // fields: the packed rows' own (nil: all, in order)
	if packed {
		rows = live
	}
	w.gruBackward(dTable, in, rows, t, m, w.act[t*n*3*d:(t*n+m)*3*d], w.gh[t*n*3*d:(t*n+m)*3*d],
		h, dh[:m*d], dgh, dhPrev[:m*d])
	kernels.SgemmNN(m, d, 3*d, 1, dgh, 3*d, l.WHH.View(params), d, 1, dhPrev[:m*d], d)
	if packed {
		scatterRows(w.dheads[t*n*(V+1):(t+1)*n*(V+1)], dheads, s.pos[t*n:(t+1)*n], V+1)
	}
}

// unread propagates dh back through the reading steps (Start), leaving
// dL/dh0 in dh (R even) or dhPrev (R odd). A row not reading yet at a step
// passed its h through unchanged: its dh goes through as it is, and its
// dgh is zero (not kept: weightRows marks it dead), so it adds nothing to
// W_hh or the token table. A step where some rows do not read runs the
// GRU's backward on the reading rows only, packed as read ran them, their
// dgh kept in dghAll at the step's dghAt.
func (w *Workspace) unread(whh, dh, dhPrev, dTable []float32, stop <-chan struct{}) bool {
	n, d := w.n, w.l.Hidden
	st := &w.stop
	for r := w.reading - 1; r >= 0; r-- {
		if closed(stop) {
			return false
		}
		rows := w.readingRows(r)
		m := len(rows)
		in := w.inputsAll[r*n : r*n+m]
		act := w.actAll[r*n*3*d : (r*n+m)*3*d]
		gh := w.ghAll[r*n*3*d : (r*n+m)*3*d]
		hPrev := w.hAll[r*n*d : (r+1)*n*d]
		at := st.dghAt[r]
		rdgh := w.dghAll[at*3*d : (at+m)*3*d]
		rh, rdh, rdhPrev := hPrev, dh, dhPrev
		if m < n {
			rh, rdh, rdhPrev = st.rh[:m*d], st.rdh[:m*d], st.rhNext[:m*d]
			gatherRows(rh, hPrev, rows, d)
			gatherRows(rdh, dh, rows, d)
		}
		w.gruBackward(dTable, in, rows, 0, m, act, gh, rh, rdh, rdgh, rdhPrev) // fields: step 0's
		kernels.SgemmNN(m, d, 3*d, 1, rdgh, 3*d, whh, d, 1, rdhPrev, d)
		if m < n {
			copy(dhPrev, dh) // the rows not reading pass dh through
			putRows(dhPrev, rdhPrev, rows, d)
		}
		dh, dhPrev = dhPrev, dh
	}
	return true
}

// addColumnSums adds the column sums of the rows×len(dst) packed matrix m
// to dst, as the GEMM dst += 1ᵀ·m.
func (w *Workspace) addColumnSums(dst, m []float32, rows int) {
	c := len(dst)
	kernels.SgemmTN(1, c, rows, 1, w.ones[:rows], 1, m, c, 1, dst, c)
}

func addTo(dst, src []float32) { kernels.Add(dst, src) }

package gru

// AllocatedBytes sums the capacities of every buffer of w (what it holds).
func AllocatedBytes(w *Workspace) int {
	n := 0
	for _, s := range [][]int32{w.ctx, w.ctxLen, w.level, w.inputsAll, w.actions} {
		n += 4 * cap(s)
	}
	for _, s := range [][]float32{w.mix, w.hAll, w.ghAll, w.actAll, w.heads, w.logp, w.ent, w.u, w.probs, w.ones,
		w.DLogp, w.DEnt, w.DValue, w.dheads, w.dghAll, w.dh, w.dhPrev, w.dHeadsW, w.bias} {
		n += 4 * cap(s)
	}
	st := &w.stop
	for _, s := range [][]int32{st.live, st.pos, st.inC, st.actsC, st.readRows} {
		n += 4 * cap(s)
	}
	for _, s := range [][]float32{st.hC, st.dlogp, st.dent, st.dhead, st.rh, st.rhNext, st.rdh} {
		n += 4 * cap(s)
	}
	return n + 8*cap(st.liveN) + 8*cap(st.dghAt) + cap(st.kLive)
}

// SetBackStepDone sets the hook Backward calls after each of its steps (nil: none).
func SetBackStepDone(f func(t int)) { backStepDone = f }

// DLogits is dL/dlogits of episode b at step t after Backward (nil at a
// retired step): the policy head's gradient before the GEMMs.
func DLogits(w *Workspace, b, t int) []float32 {
	i := w.index(b, t)
	if i < 0 {
		return nil
	}
	V := w.l.Vocab
	return w.dheads[i*(V+1) : i*(V+1)+V]
}

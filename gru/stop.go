package gru

import "fmt"

// Rollouts that stop: after Step(t) the engine may Retire the rows whose
// episode ended at step t (its task's done flag). Those rows take no part in
// any later step: Step computes nothing for them, and Backward treats their
// loss weights after t as zero, which is what a loss that masks the tokens
// after the answer (the step baseline with trainer.Config.MaskAfterAnswer)
// gives them anyway. The rows still live at step t are its live list L_t,
// ascending; L_0 is every row.
//
// Skipping them changes no bit of what is kept. Every kernel's result for a
// row depends only on that row, so the live rows of a step are computed
// packed, m_t of them, in the order of L_t. The step's gates, activations,
// heads and log-probabilities stay packed; the hidden states and the
// backward's head gradients are also scattered into the full T×n layout,
// with exact zeros at the retired rows, so that the heads' weight gradient
// is the same single GEMM over k = T·n, summing the same terms in the same
// order and blocking: a retired row's term is a product with zero, which
// adds nothing. The gate gradients are kept as the live rows only, step
// after step in the order of k = (R+T)·n (dghAt): the recurrent weights'
// gradient and b_hh's column sums are the same GEMMs over k run on the live
// rows, block by block (kernels.SgemmTNLiveRows), with nothing scattered
// or gathered.
//
// A step with every row live (m_t = n) runs exactly as without stopping,
// on the full blocks themselves.

// stopBuffers is the workspace's memory for rollouts that stop.
type stopBuffers struct {
	liveN []int     // T: m_t
	live  []int32   // T×Cap: L_t in live[t·n : t·n+m_t]
	pos   []int32   // T×Cap: row b's place in L_t, −1 when retired
	inC   []int32   // T×Cap: a packed step's inputs
	hC    []float32 // (T+1)×Cap×d: a packed step's h_t, rows in L_t's order
	actsC []int32   // Cap: a packed step's actions
	dlogp []float32 // Cap: a packed step's loss weights
	dent  []float32 // Cap
	dhead []float32 // Cap×(V+1): a packed step's head gradients, before their scatter
	kLive []bool    // (R+T)×Cap: which rows of the weight gradients' k = (R+T)·n are not zero
	dghAt []int     // R+T+1: where each step's live rows start in the kept gate gradients (weightRows)

	// A reading chunk's steps before a row's first token run only the rows
	// reading (read, unread): their rows, and three Cap×d blocks for
	// their packed h, h' and dh (none without reading).
	readRows        []int32
	rh, rhNext, rdh []float32
}

func newStopBuffers(l *Layout, capacity, steps int) stopBuffers {
	C, T, d, V := capacity, steps, l.Hidden, l.Vocab
	s := stopBuffers{liveN: make([]int, T), live: make([]int32, T*C), pos: make([]int32, T*C),
		inC: make([]int32, T*C), hC: make([]float32, (T+1)*C*d), actsC: make([]int32, C),
		dlogp: make([]float32, C), dent: make([]float32, C), dhead: make([]float32, C*(V+1)),
		kLive: make([]bool, (readSteps(l)+T)*C), dghAt: make([]int, readSteps(l)+T+1)}
	if readSteps(l) > 0 {
		s.readRows = make([]int32, C)
		s.rh, s.rhNext, s.rdh = make([]float32, C*d), make([]float32, C*d), make([]float32, C*d)
	}
	return s
}

// stopBufferWords is what newStopBuffers allocates, in 4-byte words (liveN
// and dghAt counted as 2, kLive as a quarter word a flag).
func stopBufferWords(l *Layout, capacity, steps int) float64 {
	C, T, d, V, R := float64(capacity), float64(steps), float64(l.Hidden), float64(l.Vocab), float64(readSteps(l))
	words := 2*T + 3*T*C + (T+1)*C*d + 3*C + C*(V+1) + (R+T)*C/4 + 2*(R+T+1)
	if R > 0 {
		words += C + 3*C*d // readRows, rh, rhNext, rdh
	}
	return words
}

// weightRows marks which of the k = (R+T)·n rows of the recurrent weight
// gradient's GEMM (dgh_tᵀ·h_t, Backward) can be non-zero: a reading step's
// row that has not started reading (its dgh is zero: unread) and a retired
// row are not. It sets dghAt, where each step's live rows start among the
// kept gate gradients, and says whether any row is dead.
func (w *Workspace) weightRows() ([]bool, bool) {
	n, R, T, s := w.n, w.reading, w.T, &w.stop
	live := s.kLive[:(R+T)*n]
	dead := 0
	for r := 0; r < R; r++ {
		for b := 0; b < n; b++ {
			live[r*n+b] = r >= w.readOffset(b)
			if !live[r*n+b] {
				dead++
			}
		}
	}
	for t := 0; t < T; t++ {
		rows := live[(R+t)*n : (R+t+1)*n]
		if !w.packed(t) {
			for b := range rows {
				rows[b] = true
			}
			continue
		}
		for b, p := range s.pos[t*n : (t+1)*n] {
			rows[b] = p >= 0
		}
		dead += n - s.liveN[t]
	}
	s.dghAt[0] = 0
	for i := 0; i < R+T; i++ {
		m := 0
		for _, l := range live[i*n : (i+1)*n] {
			if l {
				m++
			}
		}
		s.dghAt[i+1] = s.dghAt[i] + m
	}
	return live, dead > 0
}

// Retire takes the rows whose done[b] is set out of every step after t: call
// it between Step(t) and Step(t+1) (after Step(T−1) it has nothing to do).
// Rows already retired stay retired; done needs one flag per row.
func (w *Workspace) Retire(t int, done []bool) {
	if t != w.next-1 || w.next < 1 {
		panic(fmt.Sprintf("gru: Retire(%d) after Step(%d)", t, w.next-1))
	}
	if len(done) < w.n {
		panic(fmt.Sprintf("gru: Retire with %d done flags for %d rows", len(done), w.n))
	}
	if t+1 >= w.T {
		return
	}
	n, d, s := w.n, w.l.Hidden, &w.stop
	u := t + 1
	was := s.liveN[u] // L_{t+1} = L_t until now (Step(t) carried it over)
	live := s.live[u*n : u*n+was]
	m := 0
	for _, b := range live {
		if !done[b] {
			live[m] = b
			m++
		}
	}
	if m == was {
		return
	}
	s.liveN[u] = m
	pos := s.pos[u*n : (u+1)*n]
	for b := range pos {
		pos[b] = -1
	}
	for i, b := range live[:m] {
		pos[b] = int32(i)
	}
	// h_{t+1} packed in L_{t+1}'s order: from the full block when step t
	// ran on every row, else compacted in place from step t's packed output.
	dst := s.hC[u*n*d:]
	if was == n {
		gatherRows(dst, w.h[u*n*d:], live[:m], d)
		return
	}
	// live[:m] kept L_t's order, so each kept row moves down or stays:
	// j, the row's place in L_t, is at least i.
	j := 0
	for i, b := range live[:m] {
		for s.live[t*n+j] != b {
			j++
		}
		copy(dst[i*d:(i+1)*d], dst[j*d:(j+1)*d])
	}
}

// packed reports whether step t runs on fewer rows than the chunk's.
func (w *Workspace) packed(t int) bool { return w.stop.liveN[t] < w.n }

// resetLive makes every row live at step 0 (Start).
func (w *Workspace) resetLive() {
	n, s := w.n, &w.stop
	s.liveN[0] = n
	for b := 0; b < n; b++ {
		s.live[b] = int32(b)
	}
}

// carryLive makes L_{t+1} = L_t (end of Step(t)); Retire(t) then shrinks it.
func (w *Workspace) carryLive(t int) {
	if t+1 >= w.T {
		return
	}
	n, s := w.n, &w.stop
	m := s.liveN[t]
	s.liveN[t+1] = m
	if m == n {
		copy(s.live[(t+1)*n:(t+2)*n], s.live[t*n:(t+1)*n])
		return
	}
	copy(s.live[(t+1)*n:(t+1)*n+m], s.live[t*n:t*n+m])
	copy(s.pos[(t+1)*n:(t+2)*n], s.pos[t*n:(t+1)*n])
}

// index is where (episode b, step t) sits in the packed per-step blocks
// (gh, act, heads, logp, ent): t·n + its place in L_t, or −1 when retired.
func (w *Workspace) index(b, t int) int {
	if !w.packed(t) {
		return t*w.n + b
	}
	p := w.stop.pos[t*w.n+b]
	if p < 0 {
		return -1
	}
	return t*w.n + int(p)
}

// Live reports whether episode b takes part in step t (it was not retired
// at an earlier step).
func (w *Workspace) Live(b, t int) bool { return w.index(b, t) >= 0 }

// LiveSteps is Σ_t m_t of the rollout so far: the (episode, step) pairs its
// steps computed, T·n when nothing was retired.
func (w *Workspace) LiveSteps() int {
	k := 0
	for _, m := range w.stop.liveN[:max(w.next, 0)] {
		k += m
	}
	return k
}

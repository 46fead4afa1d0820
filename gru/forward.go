package gru

import (
	"fmt"

	"github.com/simdrl/simdrl/kernels"
	"github.com/simdrl/simdrl/rng"
)

// Forward rolls the chunk out open-loop for T steps from the contexts set
// with SetContext (the reference's rollout): Start, then each step's actions
// fed back as the next step's inputs. It is Start and T Steps. A layout with
// observations has no open-loop rollout (each input carries what the task
// returned): its caller runs Start and Step, writing Inputs(t).
func (w *Workspace) Forward(params []float32, dv *Derived, mode Mode, s Stream) {
	if w.l.Observations > 0 || w.l.Fielded() {
		panic("gru: Forward is open-loop; a layout with observations is rolled out with Start, Inputs and Step")
	}
	w.Start(params)
	for t := 0; t < w.T; t++ {
		w.Step(params, dv, t, mode, s)
		if t+1 < w.T {
			copy(w.Inputs(t+1), w.StepActions(t))
		}
	}
}

// Start begins the chunk's rollout: h0 = tanh(mean(emb[ctx]) +
// stage_emb[level]) per episode (the seed's intent; its own line broadcasts
// to (B,B,d) and mixes the batch), and the layout's Start (the task's context
// end) as every episode's first input, with observation 0 when the layout
// observes (the engine then writes Input(Start, o₀) with each row's first
// observation).
// Then Step(0), …, Step(T−1) in order, the engine writing Inputs(t) before
// Step(t) for t ≥ 1 (the actions of step t−1 for the reference's rollout,
// what Forward does; Layout.Input of the action and the observation after
// it with observations).
//
// A reading layout (Config.Read) starts from h0 = tanh(stage_emb[level])
// and Step(0) first reads each row's context tokens but the end, one GRU
// step each, on Input(token, o) with o the observation of the row's step-0
// input (Inputs(0), which the engine writes after Start: Reset's): no
// heads, no loss. The chunk reads for R steps, its longest context's; a
// row of m < R tokens reads at the last m, its h0 copied until then, so
// that its arithmetic is the same in any chunk and every row's first
// action is Step(0).
func (w *Workspace) Start(params []float32) {
	r := 0
	if w.l.Read {
		for _, k := range w.ctxLen[:w.n] {
			r = max(r, int(k)-1)
		}
	}
	w.setReading(r)
	w.initialState(params)
	first := w.l.Input(w.l.Start, 0)
	for b := range w.Inputs(0) {
		w.inputs[b] = first
	}
	w.resetLive()
	w.next = 0
}

// Step runs step t of the rollout Start began, the one after the last: the
// GRU on Inputs(t), the policy and value heads, and the actions picked by
// mode into StepActions(t) (Teacher: checks those set with SetAction).
func (w *Workspace) Step(params []float32, dv *Derived, t int, mode Mode, s Stream) {
	if t != w.next || t >= w.T {
		panic(fmt.Sprintf("gru: Step(%d) of %d steps; the next is %d (Start begins a rollout)", t, w.T, w.next))
	}
	l := w.l
	for _, a := range w.Inputs(t) {
		if a < 0 || int(a) >= l.InputRows() {
			panic(fmt.Sprintf("gru: input %d outside the %d inputs (Layout.InputRows)", a, l.InputRows()))
		}
	}
	if l.Fielded() {
		w.checkFields(t)
	}
	if t == 0 && w.reading > 0 {
		w.read(params, dv)
	}
	w.step(params, dv, t, mode, s)
	w.carryLive(t)
	w.next = t + 1
}

// step runs the GRU, the heads and the actions of step t on the m_t rows of
// L_t (Retire), packed in its order. With every row live (m_t = n, L_t the
// identity) it computes on the full blocks in place; otherwise its inputs
// and h_t are gathered (h_t by Retire), h_{t+1} is scattered into the full
// layout too (zero at retired rows), and action 0 is written for the
// retired rows (their task ignores what follows its end).
func (w *Workspace) step(params []float32, dv *Derived, t int, mode Mode, s Stream) {
	l, n, st := w.l, w.n, &w.stop
	V, d := l.Vocab, l.Hidden
	m := st.liveN[t]
	live := st.live[t*n : t*n+m]
	in, out, acts := w.Inputs(t), w.StepActions(t), w.StepActions(t)
	hPrev := w.h[t*n*d : (t+1)*n*d]
	hNext := w.h[(t+1)*n*d : (t+2)*n*d]
	packed := m < n
	if packed {
		in, acts = st.inC[t*n:t*n+m], st.actsC[:m]
		for i, b := range live {
			in[i] = w.inputs[t*n+int(b)]
		}
		hPrev = st.hC[t*n*d : (t*n+m)*d]
		hNext = st.hC[(t+1)*n*d : ((t+1)*n+m)*d]
	}
	gh := w.gh[t*n*3*d : (t*n+m)*3*d]
	act := w.act[t*n*3*d : (t*n+m)*3*d]
	heads := w.heads[t*n*(V+1) : (t*n+m)*(V+1)]
	logp := w.logp[t*n*V : (t*n+m)*V]

	fillRows(gh, m, l.BHH.View(params))
	kernels.SgemmNN(m, 3*d, d, 1, hPrev, d, dv.WHHT, 3*d, 1, gh, 3*d)
	var rows []int32 // fields: the packed rows' own (nil: all, in order)
	if packed {
		rows = live
	}
	w.gruForward(dv, in, rows, t, m, gh, hPrev, hNext, act)
	if packed {
		scatterRows(w.h[(t+1)*n*d:(t+2)*n*d], hNext, st.pos[t*n:(t+1)*n], d)
	}
	fillRows(heads, m, dv.HeadsBias)
	kernels.SgemmNT(m, V+1, d, 1, hNext, d, dv.HeadsW, d, 1, heads, V+1)
	if w.legal != nil {
		w.maskLogits(heads, live) // mask.go
	}
	kernels.PolicyForward(m, V, heads, V+1, logp, w.ent[t*n:t*n+m])
	switch mode {
	case Greedy:
		kernels.ArgmaxRows(m, V, heads, V+1, acts)
	case Sample:
		for i, b := range live {
			w.u[i] = s.Key.Uniform(s.Round, s.FirstEpisode+uint32(b), uint32(t), rng.PurposeAction)
		}
		if s.Temperature > 0 && s.Temperature != 1 {
			w.temperedProbs(heads, m, s.Temperature) // temperature.go: the sampled evaluation's
		} else {
			kernels.Exp(w.probs[:m*V], logp)
		}
		kernels.SampleRows(m, V, w.probs[:m*V], w.u[:m], acts)
	case Teacher:
		for _, b := range live {
			if a := out[b]; a < 0 || int(a) >= V {
				panic("gru: teacher action outside the vocabulary")
			}
		}
		return
	}
	if packed {
		clear(out)
		for i, b := range live {
			out[b] = acts[i]
		}
	}
}

// readOffset is the reading step at which row b starts reading its
// context: R − (its tokens but the end).
func (w *Workspace) readOffset(b int) int { return w.reading - int(w.ctxLen[b]) + 1 }

// read runs the R reading steps (Start): step r of row b feeds its context
// token r − readOffset(b), or, before that, copies its h. A step on which
// every row reads runs the whole chunk; one on which some rows have not
// started runs the GRU on the reading rows only, packed in their order
// (readingRows), and copies the others' h.
func (w *Workspace) read(params []float32, dv *Derived) {
	l, n, d := w.l, w.n, w.l.Hidden
	bhh := l.BHH.View(params)
	in0 := w.Inputs(0)
	st := &w.stop
	for r := 0; r < w.reading; r++ {
		rows := w.readingRows(r)
		m := len(rows)
		in := w.inputsAll[r*n : r*n+m] // packed: the reading rows' inputs
		for i, b := range rows {
			o := int32(0)
			if l.Observations > 0 {
				o = in0[b] % int32(l.Observations)
			}
			in[i] = l.Input(w.ctx[int(b)*MaxContext+r-w.readOffset(int(b))], o)
		}
		hPrev := w.hAll[r*n*d : (r+1)*n*d]
		hNext := w.hAll[(r+1)*n*d : (r+2)*n*d]
		gh := w.ghAll[r*n*3*d : (r*n+m)*3*d]
		act := w.actAll[r*n*3*d : (r*n+m)*3*d]
		rh, rhNext := hPrev, hNext
		if m < n {
			rh, rhNext = st.rh[:m*d], st.rhNext[:m*d]
			gatherRows(rh, hPrev, rows, d)
		}
		fillRows(gh, m, bhh)
		kernels.SgemmNN(m, 3*d, d, 1, rh, d, dv.WHHT, 3*d, 1, gh, 3*d)
		w.gruForward(dv, in, rows, 0, m, gh, rh, rhNext, act) // fields: step 0's
		if m < n {
			copy(hNext, hPrev) // the rows not reading keep their h
			putRows(hNext, rhNext, rows, d)
		}
	}
}

// readingRows lists the rows that read at reading step r (r ≥ their
// readOffset), ascending: every row, 0..n−1, when all do.
func (w *Workspace) readingRows(r int) []int32 {
	rows := w.stop.readRows[:0]
	for b := 0; b < w.n; b++ {
		if r >= w.readOffset(b) {
			rows = append(rows, int32(b))
		}
	}
	return rows
}

// initialState writes h0 = tanh(mean of emb over the context + stage_emb)
// (reading: tanh(stage_emb)) for the whole chunk as one GEMM,
// mix·[emb; stage_emb], then tanh, before the reading steps if any.
func (w *Workspace) initialState(params []float32) {
	l, n, d := w.l, w.n, w.l.Hidden
	k := l.Vocab + l.Levels
	h0 := w.hAll[:n*d]
	kernels.SgemmNN(n, d, k, 1, w.mix[:n*k], k, l.embeddings(params), d, 0, h0, d)
	kernels.Tanh(h0)
}

// gatherRows copies src's rows listed in rows, each width wide, into the
// packed dst, in that order.
func gatherRows(dst, src []float32, rows []int32, width int) {
	for i, b := range rows {
		copy(dst[i*width:(i+1)*width], src[int(b)*width:int(b+1)*width])
	}
}

// putRows is gatherRows' inverse: the packed src's row i into dst's row
// rows[i]; dst's other rows stay as they are.
func putRows(dst, src []float32, rows []int32, width int) {
	for i, b := range rows {
		copy(dst[int(b)*width:int(b+1)*width], src[i*width:(i+1)*width])
	}
}

// scatterRows writes row b of the full dst from row pos[b] of the packed
// src, and zero where pos[b] < 0 (a retired row).
func scatterRows(dst, src []float32, pos []int32, width int) {
	for b, p := range pos {
		if p < 0 {
			clear(dst[b*width : (b+1)*width])
		} else {
			copy(dst[b*width:(b+1)*width], src[int(p)*width:int(p+1)*width])
		}
	}
}

// fillRows copies row into each of the n rows of m (packed, len(row) wide).
func fillRows(m []float32, n int, row []float32) {
	c := len(row)
	for i := 0; i < n; i++ {
		copy(m[i*c:(i+1)*c], row)
	}
}

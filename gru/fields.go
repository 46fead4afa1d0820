package gru

import (
	"fmt"

	"github.com/simdrl/simdrl/kernels"
)

// Observations with fields (Config.Fields, Config.Vector): the input at a
// step is emb[a] + Σ_f field_emb.f[o_f] + vec.weight·v + vec.bias, the
// previous action, each categorical field embedded on its own, and a float
// vector through a linear layer. W_ih·x + b_ih is linear in x, so the input
// table keeps one row per token (emb·W_ihᵀ + b_ih + W_ih·vec.bias) and one
// per field value (field_emb·W_ihᵀ): Σ O_f rows rather than V·Π O_f, and a
// step's input gates are the sum of its rows plus (W_ih·vec.weight)·v.
// Precomputing the rows costs (V + Σ O_f)·3d·d a update, against a GEMM of
// n·3d·d at every step (and two in backward) if x were multiplied each step.

// MaxFields bounds the fields a step carries and MaxVector its float
// vector, so that no task can make the per-step buffers absurd.
const (
	MaxFields = 64
	MaxVector = 1024
)

// Fielded reports whether the layout's inputs carry fields or a vector (the
// path of this file); one field and no vector is Observations instead
// (NewLayout), today's V·O table, bit for bit.
func (l *Layout) Fielded() bool { return len(l.Fields) > 0 || l.Vector > 0 }

// FieldRows is Σ O_f, the input table's rows after the V token rows.
func (l *Layout) FieldRows() int {
	n := 0
	for _, o := range l.Fields {
		n += o
	}
	return n
}

// tableRows is the input table's rows: InputRows, and a fielded layout's
// field rows after its tokens.
func (l *Layout) tableRows() int { return l.InputRows() + l.FieldRows() }

// normaliseFields checks c's fields and vector and turns one field without
// a vector into Observations, the model a task.Observer gets.
func normaliseFields(c *Config) error {
	if len(c.Fields) > MaxFields || c.Vector < 0 || c.Vector > MaxVector {
		return fmt.Errorf("gru: %d fields and a vector of %d (at most %d and %d)", len(c.Fields), c.Vector, MaxFields, MaxVector)
	}
	rows := 0
	for i, o := range c.Fields {
		if o < 1 || o > MaxObservations {
			return fmt.Errorf("gru: field %d has %d values (1..%d)", i, o, MaxObservations)
		}
		rows += o
	}
	if rows > MaxInputRows {
		return fmt.Errorf("gru: fields of %d values in all (at most %d)", rows, MaxInputRows)
	}
	if (len(c.Fields) > 0 || c.Vector > 0) && c.Observations > 0 {
		return fmt.Errorf("gru: a model observes either one observation vocabulary or fields, not both")
	}
	if len(c.Fields) == 1 && c.Vector == 0 {
		c.Observations, c.Fields = c.Fields[0], nil
	} else {
		c.Fields = append([]int(nil), c.Fields...) // the caller's slice may change
	}
	return nil
}

// addFieldTensors lays out the fields' embeddings (adjacent, so that their
// rows are one matrix) and the vector's layer, after every other tensor.
func (l *Layout) addFieldTensors(add func(name string, shape ...int) Tensor) {
	d := l.Hidden
	for f, o := range l.Fields {
		t := add(fmt.Sprintf("field_emb.%d.weight", f), o, d)
		if f == 0 {
			l.FieldEmb = t
		}
	}
	l.FieldEmb.Size = l.FieldRows() * d
	l.FieldEmb.Shape = []int{l.FieldRows(), d}
	if l.Vector > 0 {
		l.VecW = add("vec.weight", d, l.Vector)
		l.VecB = add("vec.bias", d)
	}
}

// fieldOffsets is each field's first row after the tokens' (V + Σ_{g<f} O_g).
func (l *Layout) fieldOffsets() []int32 {
	off := make([]int32, len(l.Fields))
	at := l.Vocab
	for f, o := range l.Fields {
		off[f] = int32(at)
		at += o
	}
	return off
}

// computeFields writes a fielded layout's table: the token rows, with
// W_ih·vec.bias, the field rows, and vecM = W_ih·vec.weight (3d×F).
func (dv *Derived) computeFields(l *Layout, params []float32) {
	V, d := l.Vocab, l.Hidden
	wih := l.WIH.View(params)
	bias := dv.gateBias // b_ih + W_ih·vec.bias
	copy(bias, l.BIH.View(params))
	if l.Vector > 0 {
		kernels.SgemmNT(1, 3*d, d, 1, l.VecB.View(params), d, wih, d, 1, bias, 3*d)
		kernels.SgemmNN(3*d, l.Vector, d, 1, wih, d, l.VecW.View(params), l.Vector, 0, dv.vecM, l.Vector)
	}
	for v := 0; v < V; v++ {
		copy(dv.Table[v*3*d:(v+1)*3*d], bias)
	}
	kernels.SgemmNT(V, 3*d, d, 1, l.Emb.View(params), d, wih, d, 1, dv.Table, 3*d)
	if rows := l.FieldRows(); rows > 0 {
		kernels.SgemmNT(rows, 3*d, d, 1, l.FieldEmb.View(params), d, wih, d, 0, dv.Table[V*3*d:], 3*d)
	}
}

// applyFields is TableGradient.Apply for a fielded layout: buf holds the
// token rows' dL/dgi, the field rows', then dM = Σ dgi·vᵀ (3d×F).
func (g *TableGradient) applyFields(params, grad []float32) {
	l := g.l
	V, d, F, rows := l.Vocab, l.Hidden, l.Vector, l.FieldRows()
	wih, dwih := l.WIH.View(params), l.WIH.View(grad)
	tok := g.buf[:V*3*d]
	kernels.SgemmTN(3*d, d, V, 1, tok, 3*d, l.Emb.View(params), d, 1, dwih, d)
	kernels.SgemmTN(1, 3*d, V, 1, g.ones, 1, tok, 3*d, 1, l.BIH.View(grad), 3*d)
	kernels.SgemmNN(V, d, 3*d, 1, tok, 3*d, wih, d, 1, l.Emb.View(grad), d)
	if rows > 0 {
		fr := g.buf[V*3*d : (V+rows)*3*d]
		kernels.SgemmTN(3*d, d, rows, 1, fr, 3*d, l.FieldEmb.View(params), d, 1, dwih, d)
		kernels.SgemmNN(rows, d, 3*d, 1, fr, 3*d, wih, d, 1, l.FieldEmb.View(grad), d)
	}
	if F > 0 {
		// Every step's gates hold one token row, so vec.bias's share,
		// W_ih·vec.bias, has the token rows' column sums as its gradient.
		dc := g.dc
		clear(dc)
		kernels.SgemmTN(1, 3*d, V, 1, g.ones, 1, tok, 3*d, 1, dc, 3*d)
		kernels.SgemmNN(1, d, 3*d, 1, dc, 3*d, wih, d, 1, l.VecB.View(grad), d)
		kernels.SgemmNN(3*d, d, 1, 1, dc, 1, l.VecB.View(params), d, 1, dwih, d)
		dM := g.buf[(V+rows)*3*d : (V+rows)*3*d+3*d*F]
		kernels.SgemmTN(d, F, 3*d, 1, wih, d, dM, F, 1, l.VecW.View(grad), F)
		kernels.SgemmNT(3*d, d, F, 1, dM, F, l.VecW.View(params), F, 1, dwih, d)
	}
}

// fieldBuffers is a workspace's per-step fields and vector (T×Cap each,
// step-major like inputs) and the scratch its steps' input gates use.
type fieldBuffers struct {
	fields []int32   // T×Cap×nf
	vec    []float32 // T×Cap×F
	gi     []float32 // Cap×3d: one step's input gates
	vg     []float32 // Cap×F: one step's vectors, gathered
	iota   []int32   // 0..Cap−1: row i reads gi's row i
	offset []int32   // each field's first table row (Layout.fieldOffsets)
}

func newFieldBuffers(l *Layout, capacity, steps int) fieldBuffers {
	if !l.Fielded() {
		return fieldBuffers{}
	}
	fb := fieldBuffers{fields: make([]int32, steps*capacity*len(l.Fields)), vec: make([]float32, steps*capacity*l.Vector),
		gi: make([]float32, capacity*3*l.Hidden), vg: make([]float32, capacity*l.Vector), iota: make([]int32, capacity),
		offset: l.fieldOffsets()}
	for i := range fb.iota {
		fb.iota[i] = int32(i)
	}
	return fb
}

func fieldBufferWords(l *Layout, capacity, steps int) float64 {
	if !l.Fielded() {
		return 0
	}
	C, T, nf, F, d := float64(capacity), float64(steps), float64(len(l.Fields)), float64(l.Vector), float64(l.Hidden)
	return T*C*nf + T*C*F + C*3*d + C*F + C + nf
}

// Fields is step t's fields, n×nf row-major (Config.Fields): the engine
// writes the fields that the task returned before step t (Reset's for t =
// 0), before Step(t). Empty for a layout without fields.
func (w *Workspace) Fields(t int) []int32 {
	nf := len(w.l.Fields)
	return w.fb.fields[t*w.n*nf : (t+1)*w.n*nf]
}

// Vector is step t's vectors, n×F row-major (Config.Vector), written like
// Fields.
func (w *Workspace) Vector(t int) []float32 {
	F := w.l.Vector
	return w.fb.vec[t*w.n*F : (t+1)*w.n*F]
}

// checkFields panics on a field value outside its field at step t (the
// engine checks what a task writes; this guards the table's bounds).
func (w *Workspace) checkFields(t int) {
	nf := len(w.l.Fields)
	for i, o := range w.Fields(t) {
		if o < 0 || int(o) >= w.l.Fields[i%nf] {
			panic(fmt.Sprintf("gru: field %d value %d outside 0..%d", i%nf, o, w.l.Fields[i%nf]-1))
		}
	}
}

// inputGates writes the m rows' input gates for a fielded layout into the
// scratch gi and returns it with the identity indices, for GRUForward:
// row i is token in[i]'s table row plus row b's fields at step t (b =
// rows[i], or i when rows is nil), plus (W_ih·vec.weight)·v.
func (w *Workspace) inputGates(dv *Derived, in, rows []int32, t, m int) ([]float32, []int32) {
	l, n, d3 := w.l, w.n, 3*w.l.Hidden
	nf, F := len(l.Fields), l.Vector
	gi := w.fb.gi[:m*d3]
	for i := 0; i < m; i++ {
		b := i
		if rows != nil {
			b = int(rows[i])
		}
		row := gi[i*d3 : (i+1)*d3]
		copy(row, dv.Table[int(in[i])*d3:int(in[i]+1)*d3])
		for f, o := range w.fb.fields[(t*n+b)*nf : (t*n+b+1)*nf] {
			r := int(w.fb.offset[f] + o)
			kernels.Add(row, dv.Table[r*d3:(r+1)*d3])
		}
	}
	if F > 0 {
		kernels.SgemmNT(m, d3, F, 1, w.stepVectors(rows, t, m), F, dv.vecM, F, 1, gi, d3)
	}
	return gi, w.fb.iota[:m]
}

// stepVectors is the m rows' vectors at step t: the step's block in place,
// or gathered in rows' order.
func (w *Workspace) stepVectors(rows []int32, t, m int) []float32 {
	F, n := w.l.Vector, w.n
	if rows == nil {
		return w.fb.vec[t*n*F : (t*n+m)*F]
	}
	v := w.fb.vg[:m*F]
	for i, b := range rows {
		copy(v[i*F:(i+1)*F], w.fb.vec[(t*n+int(b))*F:(t*n+int(b)+1)*F])
	}
	return v
}

// addInputGrads adds the m rows' dL/dgi (dgi, m×3d) to the table gradient
// dTable: each row to its token's row and its fields' rows, and Σ dgi·vᵀ
// to dM after the field rows.
func (w *Workspace) addInputGrads(dTable, dgi []float32, in, rows []int32, t, m int) {
	l, n, d3 := w.l, w.n, 3*w.l.Hidden
	nf, F := len(l.Fields), l.Vector
	for i := 0; i < m; i++ {
		b := i
		if rows != nil {
			b = int(rows[i])
		}
		row := dgi[i*d3 : (i+1)*d3]
		kernels.Add(dTable[int(in[i])*d3:int(in[i]+1)*d3], row)
		for f, o := range w.fb.fields[(t*n+b)*nf : (t*n+b+1)*nf] {
			r := int(w.fb.offset[f] + o)
			kernels.Add(dTable[r*d3:(r+1)*d3], row)
		}
	}
	if F > 0 {
		at := l.tableRows() * d3
		kernels.SgemmTN(d3, F, m, 1, dgi, d3, w.stepVectors(rows, t, m), F, 1, dTable[at:at+d3*F], F)
	}
}

// gruForward is GRUForward on the input table, or for a fielded layout on
// the m rows' input gates (inputGates).
func (w *Workspace) gruForward(dv *Derived, in, rows []int32, t, m int, gh, hPrev, hNext, act []float32) {
	table, tok := dv.Table, in[:m]
	if w.l.Fielded() {
		table, tok = w.inputGates(dv, in, rows, t, m)
	}
	kernels.GRUForward(m, w.l.Hidden, table, tok, gh, hPrev, hNext, act)
}

// gruBackward is GRUBackward into the table gradient dTable, or for a
// fielded layout into the scratch gi, then spread over its rows
// (addInputGrads).
func (w *Workspace) gruBackward(dTable []float32, in, rows []int32, t, m int, act, gh, h, dh, dgh, dhPrev []float32) {
	if !w.l.Fielded() {
		kernels.GRUBackward(m, w.l.Hidden, in[:m], act, gh, h, dh, dgh, dhPrev, dTable)
		return
	}
	dgi := w.fb.gi[:m*3*w.l.Hidden]
	clear(dgi)
	kernels.GRUBackward(m, w.l.Hidden, w.fb.iota[:m], act, gh, h, dh, dgh, dhPrev, dgi)
	w.addInputGrads(dTable, dgi, in, rows, t, m)
}

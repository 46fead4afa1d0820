package gru

import "github.com/simdrl/simdrl/kernels"

// TableGradient holds dL/dtable (InputRows×3d), the gradient that flows
// through the input table (table = X·W_ihᵀ + b_ih, see Derived), summed over
// the chunks of an update, and applies it to the parameters the table is
// made of once per update.
type TableGradient struct {
	l    *Layout
	buf  []float32 // InputRows×3d
	ones []float32 // InputRows ones: the column sums as a GEMM
	// With observations: X (the summed embeddings, InputRows×d) and dX.
	x, dx []float32
	dc    []float32 // fields: the vector's bias share, 3d (applyFields)
}

// NewTableGradient allocates a zero table gradient for layout l.
func NewTableGradient(l *Layout) *TableGradient {
	rows := l.InputRows()
	g := &TableGradient{l: l, buf: make([]float32, tableGradientWords(l)), ones: ones(rows)}
	if l.Fielded() {
		g.dc = make([]float32, 3*l.Hidden)
	}
	if l.Observations > 0 {
		g.x, g.dx = make([]float32, rows*l.Hidden), make([]float32, rows*l.Hidden)
	}
	return g
}

// TableGradientBytes is what NewTableGradient(l) allocates.
func TableGradientBytes(l *Layout) float64 {
	rows, d := float64(l.InputRows()), float64(l.Hidden)
	words := float64(tableGradientWords(l)) + rows
	if l.Observations > 0 {
		words += 2 * rows * d
	}
	if l.Fielded() {
		words += 3 * d
	}
	return 4 * words
}

// tableGradientWords is the gradient buffer's length: a row per input, and
// for a fielded layout a row per field value and dM (3d×F) after them.
func tableGradientWords(l *Layout) int {
	return l.tableRows()*3*l.Hidden + 3*l.Hidden*l.Vector
}

// Buffer is the InputRows×3d gradient that Backward adds into.
func (g *TableGradient) Buffer() []float32 { return g.buf }

// Clear zeroes the gradient for the next update.
func (g *TableGradient) Clear() { clear(g.buf) }

// Apply adds the table's gradient to grad: dW_ih += dTableᵀ·X,
// db_ih += Σ_rows dTable, dX = dTable·W_ih; X = emb without observations
// (demb += dX), else row a·O+o = emb[a] + obs_emb[o], so demb[a] += Σ_o
// dX[a·O+o] and dobs_emb[o] += Σ_a dX[a·O+o].
func (g *TableGradient) Apply(params, grad []float32) {
	l := g.l
	d, rows := l.Hidden, l.InputRows()
	if l.Fielded() {
		g.applyFields(params, grad)
		return
	}
	if l.Observations == 0 {
		kernels.SgemmTN(3*d, d, rows, 1, g.buf, 3*d, l.Emb.View(params), d, 1, l.WIH.View(grad), d)
		kernels.SgemmTN(1, 3*d, rows, 1, g.ones, 1, g.buf, 3*d, 1, l.BIH.View(grad), 3*d)
		kernels.SgemmNN(rows, d, 3*d, 1, g.buf, 3*d, l.WIH.View(params), d, 1, l.Emb.View(grad), d)
		return
	}
	inputSums(l, params, g.x)
	kernels.SgemmTN(3*d, d, rows, 1, g.buf, 3*d, g.x, d, 1, l.WIH.View(grad), d)
	kernels.SgemmTN(1, 3*d, rows, 1, g.ones, 1, g.buf, 3*d, 1, l.BIH.View(grad), 3*d)
	kernels.SgemmNN(rows, d, 3*d, 1, g.buf, 3*d, l.WIH.View(params), d, 0, g.dx, d)
	V, O := l.Vocab, l.Observations
	demb, dobs := l.Emb.View(grad), l.ObsEmb.View(grad)
	for a := 0; a < V; a++ {
		ea := demb[a*d : (a+1)*d]
		for o := 0; o < O; o++ {
			row := g.dx[(a*O+o)*d : (a*O+o+1)*d]
			kernels.Add(ea, row)
			kernels.Add(dobs[o*d:(o+1)*d], row)
		}
	}
}

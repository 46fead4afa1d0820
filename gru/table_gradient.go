package gru

import "github.com/simdrl/simdrl/kernels"

// TableGradient holds dL/dtable (V×3d), the gradient that flows through the
// token table (table = emb·W_ihᵀ + b_ih, see Derived), summed over the
// chunks of an update, and applies it to the parameters the table is made
// of once per update.
type TableGradient struct {
	l    *Layout
	buf  []float32 // V×3d
	ones []float32 // V ones: the column sums as a GEMM
}

// NewTableGradient allocates a zero table gradient for layout l.
func NewTableGradient(l *Layout) *TableGradient {
	return &TableGradient{l: l, buf: make([]float32, l.Vocab*3*l.Hidden), ones: ones(l.Vocab)}
}

// Buffer is the V×3d gradient that Backward adds into.
func (g *TableGradient) Buffer() []float32 { return g.buf }

// Clear zeroes the gradient for the next update.
func (g *TableGradient) Clear() { clear(g.buf) }

// Apply adds the table's gradient to grad: dW_ih += dTableᵀ·emb,
// db_ih += Σ_rows dTable, demb += dTable·W_ih.
func (g *TableGradient) Apply(params, grad []float32) {
	l := g.l
	V, d := l.Vocab, l.Hidden
	kernels.SgemmTN(3*d, d, V, 1, g.buf, 3*d, l.Emb.View(params), d, 1, l.WIH.View(grad), d)
	kernels.SgemmTN(1, 3*d, V, 1, g.ones, 1, g.buf, 3*d, 1, l.BIH.View(grad), 3*d)
	kernels.SgemmNN(V, d, 3*d, 1, g.buf, 3*d, l.WIH.View(params), d, 1, l.Emb.View(grad), d)
}

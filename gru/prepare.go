package gru

import "github.com/simdrl/simdrl/kernels"

// Derived holds tensors derived from the parameters once per update and shared
// by every chunk: the GRU's input gates for every input (the input to the
// GRU is always a token embedding, or a token's plus an observation's, so
// W_ih·x + b_ih is a table with one row per input, Layout.InputRows), W_hh
// transposed, and the policy and value heads stacked into one (V+1)×d
// matrix so that a single GEMM computes both.
type Derived struct {
	Table []float32 // InputRows×3d: X·W_ihᵀ + b_ih, X = emb, or emb[a] + obs_emb[o] in row a·O+o
	// WHHT is W_hhᵀ (d×3d), so that every step's gates GEMM h·W_hhᵀ is an
	// NN GEMM that reads it in place: NT would transpose W_hh into packed
	// panels on every call, T or more times a chunk. Each element of the
	// gates is the same FMA chain over k either way, so for d ≤ 256 (one
	// k block in both forms) the assembly's results are the NT form's bit
	// for bit (kernels.TestGatesNNIsNT).
	WHHT      []float32
	HeadsW    []float32 // (V+1)×d: pi.weight rows, then v.weight
	HeadsBias []float32 // V+1:     pi.bias, then v.bias
	x         []float32 // InputRows×d: the summed embeddings (nil without observations)
	vecM      []float32 // fields: W_ih·vec.weight (3d×F)
	gateBias  []float32 // fields: b_ih + W_ih·vec.bias (3d)
}

// NotActionLogit is added to the logit of a token that is not an action:
// exp of it underflows to 0 in float32, so the token is never sampled or
// chosen, adds nothing to the entropy and gets no gradient, while its log
// probability stays finite.
const NotActionLogit = -1e4

// NewDerived allocates the derived tensors for layout l.
func NewDerived(l *Layout) *Derived {
	V, d := l.Vocab, l.Hidden
	dv := &Derived{
		Table:     make([]float32, l.tableRows()*3*d),
		WHHT:      make([]float32, d*3*d),
		HeadsW:    make([]float32, (V+1)*d),
		HeadsBias: make([]float32, V+1),
	}
	if l.Observations > 0 {
		dv.x = make([]float32, l.InputRows()*d)
	}
	if l.Fielded() {
		dv.vecM, dv.gateBias = make([]float32, 3*d*l.Vector), make([]float32, 3*d)
	}
	return dv
}

// DerivedBytes is what NewDerived(l) allocates.
func DerivedBytes(l *Layout) float64 {
	V, d, rows := float64(l.Vocab), float64(l.Hidden), float64(l.tableRows())
	words := rows*3*d + d*3*d + (V+1)*d + V + 1
	if l.Observations > 0 {
		words += rows * d
	}
	if l.Fielded() {
		words += 3 * d * float64(l.Vector+1) // vecM, gateBias
	}
	return 4 * words
}

// Compute refreshes the derived tensors from params. Call it after every
// parameter change, before any Forward.
func (dv *Derived) Compute(l *Layout, params []float32) {
	V, d := l.Vocab, l.Hidden
	if l.Fielded() {
		dv.computeFields(l, params)
	} else {
		dv.computeTable(l, params)
	}
	transpose(dv.WHHT, l.WHH.View(params), 3*d, d)
	copy(dv.HeadsW, l.PiW.View(params))
	copy(dv.HeadsW[V*d:], l.VW.View(params))
	copy(dv.HeadsBias, l.PiB.View(params))
	for _, tok := range l.NotActions {
		dv.HeadsBias[tok] += NotActionLogit
	}
	dv.HeadsBias[V] = l.VB.View(params)[0]
}

// computeTable writes the input table of a layout without fields: one row
// per input, X·W_ihᵀ + b_ih.
func (dv *Derived) computeTable(l *Layout, params []float32) {
	d, rows := l.Hidden, l.InputRows()
	bih := l.BIH.View(params)
	for v := 0; v < rows; v++ {
		copy(dv.Table[v*3*d:(v+1)*3*d], bih)
	}
	x := l.Emb.View(params)
	if l.Observations > 0 {
		// One GEMM on the summed embeddings, as PyTorch computes
		// W_ih·(emb(a) + obs_emb(o)).
		inputSums(l, params, dv.x)
		x = dv.x
	}
	kernels.SgemmNT(rows, 3*d, d, 1, x, d, l.WIH.View(params), d, 1, dv.Table, 3*d)
}

// inputSums writes X, row a·O+o = emb[a] + obs_emb[o], into x (V·O×d).
func inputSums(l *Layout, params, x []float32) {
	V, O, d := l.Vocab, l.Observations, l.Hidden
	emb, obs := l.Emb.View(params), l.ObsEmb.View(params)
	for a := 0; a < V; a++ {
		ea := emb[a*d : (a+1)*d]
		for o := 0; o < O; o++ {
			row, eo := x[(a*O+o)*d:(a*O+o+1)*d], obs[o*d:(o+1)*d]
			for i := range row {
				row[i] = ea[i] + eo[i]
			}
		}
	}
}

// transpose writes the rows×cols row-major src into dst as cols×rows. Four
// rows of src at a time, so that each write to dst fills four adjacent
// floats of a line rather than one.
func transpose(dst, src []float32, rows, cols int) {
	i := 0
	for ; i+4 <= rows; i += 4 {
		s0 := src[i*cols : (i+1)*cols]
		s1 := src[(i+1)*cols : (i+2)*cols][:len(s0)]
		s2 := src[(i+2)*cols : (i+3)*cols][:len(s0)]
		s3 := src[(i+3)*cols : (i+4)*cols][:len(s0)]
		for j := range s0 {
			d := dst[j*rows+i : j*rows+i+4 : j*rows+i+4]
			d[0], d[1], d[2], d[3] = s0[j], s1[j], s2[j], s3[j]
		}
	}
	for ; i < rows; i++ {
		for j, v := range src[i*cols : (i+1)*cols] {
			dst[j*rows+i] = v
		}
	}
}

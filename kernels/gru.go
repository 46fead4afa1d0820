package kernels

// The fused GRU gate step for a tile of rows, PyTorch's equations and gate
// order (r, z, n):
//
//	gi = table[token]                 (W_ih·emb[token] + b_ih, precomputed per token)
//	gh = W_hh·h + b_hh                (a GEMM before this kernel)
//	r  = σ(gi_r + gh_r)
//	z  = σ(gi_z + gh_z)
//	n  = tanh(gi_n + r ⊙ gh_n)
//	h' = (1 − z) ⊙ n + z ⊙ h
//
// Layouts: table is V×3d, gh and act are rows×3d, h rows×d, all packed.

// GRUForward writes h' into hNext and (r, z, n) into act for backward.
func GRUForward(rows, d int, table []float32, tokens []int32, gh, hPrev, hNext, act []float32) {
	checkGRU("GRUForward", rows, d, tokens, gh, hPrev, hNext, act)
	for _, t := range tokens[:rows] {
		if t < 0 || int(t+1)*3*d > len(table) {
			panic("kernels.GRUForward: token outside the table")
		}
	}
	if rows == 0 || d == 0 {
		return
	}
	impl.gruForward(rows, d, table, tokens, gh, hPrev, hNext, act)
}

// GRUBackward takes dL/dh' (dhNext) and the forward's act, gh and hPrev, and
// writes dL/dgh into dgh (rows×3d: the gradient w.r.t. W_hh·h + b_hh), the
// direct part of dL/dh (dh'·z) into dhPrev, and adds dL/dgi to
// dTable[token] (V×3d). The caller adds dgh·W_hh to dhPrev with a GEMM.
func GRUBackward(rows, d int, tokens []int32, act, gh, hPrev, dhNext, dgh, dhPrev, dTable []float32) {
	checkGRU("GRUBackward", rows, d, tokens, gh, hPrev, dhPrev, act)
	mustLen("GRUBackward", "dhNext", len(dhNext), rows*d)
	mustLen("GRUBackward", "dgh", len(dgh), rows*3*d)
	for _, t := range tokens[:rows] {
		if t < 0 || int(t+1)*3*d > len(dTable) {
			panic("kernels.GRUBackward: token outside dTable")
		}
	}
	if rows == 0 || d == 0 {
		return
	}
	impl.gruBack(rows, d, tokens, act, gh, hPrev, dhNext, dgh, dhPrev, dTable)
}

func checkGRU(name string, rows, d int, tokens []int32, gh, hPrev, hOut, act []float32) {
	mustDim(name, "rows", rows, 0)
	mustDim(name, "d", d, 0)
	mustLen(name, "tokens", len(tokens), rows)
	mustLen(name, "gh", len(gh), rows*3*d)
	mustLen(name, "act", len(act), rows*3*d)
	mustLen(name, "hPrev", len(hPrev), rows*d)
	mustLen(name, "h out", len(hOut), rows*d)
}

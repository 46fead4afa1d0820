//go:build cgo

package gpu

// The plan of the gradient reductions: the token table's block size, the
// tiles of each reduction and the most slabs their partial sums are sized for.

// maxTokenRows is the most token-table rows simdrl_token_partial handles:
// its NV accumulators per thread fill 48 KB of shared memory at 8 threads
// (the branching tape's table has 8 tokens × 154 observations).
const maxTokenRows = 48 << 10 / (4 * 8)

// tokenBlock is simdrl_token_partial's block size for a table of NV rows:
// 128 threads as before while NV accumulators each fit in 48 KB of shared
// memory (the default limit), fewer for the longer tables of an observing
// task; 0 when not even 8 fit.
func tokenBlock(NV int) int {
	for _, bd := range []int{128, 64, 32, 16, 8} {
		if 4*NV*bd <= 48<<10 {
			return bd
		}
	}
	return 0
}

// The tiles of the gradient reductions (gradients): dW_hh|db_hh and the
// heads (simdrl_gemm_tn), the token table and h0.
func (e *engine) whhTiles() int  { return ceilDiv(e.H, 96) * ceilDiv(3*e.H, 96) }
func (e *engine) headTiles() int { return ceilDiv(e.H, 96) * ceilDiv(e.V+1, 32) }
func (e *engine) tokTiles() int  { return ceilDiv(3*e.H, e.tokBlock) }
func (e *engine) h0Tiles() int   { return ceilDiv(e.H, 128) }

// slabCaps sets the most slabs of each reduction: every training rollout
// has at most B episodes and R reading steps, and the reductions' partial
// sums are allocated for the most slabs any of them takes.
func (e *engine) slabCaps() {
	B, T, sms := e.B, e.T, e.d.SMs
	e.sWhh = slabCap((e.R+T)*B, e.whhTiles(), sms)
	e.sHeads = slabCap(T*B, e.headTiles(), sms)
	e.sTok = slabCap((e.R+T)*B, e.tokTiles(), sms)
	e.sH0 = slabCap(B, e.h0Tiles(), sms)
	e.sField = slabCap(T*B, e.fieldTiles(), sms) // (a fielded task is stepped on the host: no reading steps)
}

//go:build cgo

package gpu

// Backward through time and the reductions that assemble the gradient.

import (
	"fmt"
)

// gradients runs backward through time over the latest training rollout
// (e.last: the batch, or a part of the replayed episodes) and assembles the
// gradient of every parameter into grad (each element written once: no
// clearing needed).
func (e *engine) gradients() error {
	V, H, T, B, RS := e.V, e.H, e.last.steps, e.last.n, e.last.reading
	V1, G3, R, RR := V+1, 3*H, T*B, (RS+T)*B
	if B <= 0 {
		return fmt.Errorf("gpu: gradients before a training rollout")
	}
	p := e.bwd
	if B != e.B {
		var err error
		if p, err = planTiles(B, H, V, e.O, e.d.SMs, e.d.SmemOptin, true); err != nil {
			return err
		}
	}
	sWhh, slabWhh := slabPlan(RR, e.whhTiles(), e.d.SMs)
	sHeads, slabHeads := slabPlan(R, e.headTiles(), e.d.SMs)
	sTok, slabTok := slabPlan(RR, e.tokTiles(), e.d.SMs)
	sH0, slabH0 := slabPlan(B, e.h0Tiles(), e.d.SMs)
	if sWhh > e.sWhh || sHeads > e.sHeads || sTok > e.sTok || sH0 > e.sH0 {
		return fmt.Errorf("gpu: %d reduction slabs in buffers for %d", max(sWhh, sHeads, sTok, sH0), min(e.sWhh, e.sHeads, e.sTok, e.sH0)) // slabCap's bound broken
	}
	a := e.a.reset()
	a.ptr("P", e.P).ptr("headsN", e.headsN).i32("B", B).i32("T", T).i32("R", RS).i32("d", H).i32("V", V).i32("S", e.S).flag("use_smem_w", p.SmemW)
	a.ptr("tasks", e.tasks).ptr("h", e.h).ptr("act", e.act).ptr("ghn", e.ghn).ptr("logp", e.logp).ptr("tokens", e.tokens)
	a.ptr("dlogp", e.dlogp).ptr("dent", e.dent).ptr("dval", e.dval)
	ends := devPtr(0)
	if e.last.ends {
		ends = e.epEnd
	}
	a.ptr("ends", ends).ptr("dheads", e.dheads).ptr("dgh", e.dgh).ptr("dgin", e.dgin).ptr("dh0g", e.dh0g)
	if err := e.launch(e.backwardName(p.EPT), [3]int{p.Blocks, 1, 1}, [3]int{p.DP, p.G, 1}, p.Smem, a); err != nil {
		return err
	}
	// dW_hh and db_hh: dghᵀ·h_t over all rows, the reading steps' too.
	a.reset().ptr("A", e.dgh).i32("lda", G3).ptr("Bm", e.h).i32("ldb", H).i32("M", G3).i32("N", H).i32("ones", 1).i32("R", RR).
		i32("slab", slabWhh).ptr("part", e.partWhh)
	if err := e.launch("simdrl_gemm_tn_m96", [3]int{ceilDiv(H, 96), ceilDiv(G3, 96), sWhh}, [3]int{192, 1, 1}, 0, a); err != nil {
		return err
	}
	// The heads: dheadsᵀ·h_{t+1}.
	a.reset().ptr("A", e.dheads).i32("lda", V1).ptr("Bm", e.h.at((RS+1)*B*H)).i32("ldb", H).i32("M", V1).i32("N", H).i32("ones", 1).i32("R", R).
		i32("slab", slabHeads).ptr("part", e.partHeads)
	if err := e.launch("simdrl_gemm_tn_m32", [3]int{ceilDiv(H, 96), ceilDiv(V1, 32), sHeads}, [3]int{192, 1, 1}, 0, a); err != nil {
		return err
	}
	// The token table's gradient (its NV rows: with observations, over each
	// step's input a·O + o), and h0's.
	in := e.tokens
	if e.O > 0 || e.R > 0 {
		in = e.inputs // reading: the reading steps' inputs, then the policy steps'
	}
	bd := e.tokBlock
	a.reset().ptr("dgh", e.dgh).ptr("dgin", e.dgin).ptr("tokens", in).i32("R", RR).i32("G3", G3).i32("V", e.NV).
		i32("slab", slabTok).ptr("part", e.partTok)
	if err := e.launch("simdrl_token_partial", [3]int{ceilDiv(G3, bd), sTok, 1}, [3]int{bd, 1, 1}, 4*e.NV*bd, a); err != nil {
		return err
	}
	a.reset().ptr("dh0g", e.dh0g).ptr("tasks", e.tasks).i32("B", B).i32("d", H).i32("V", V).i32("S", e.S).
		flag("read", e.R > 0).i32("ctx_end", int(e.ctxEnd)).i32("slab", slabH0).ptr("part", e.partH0)
	if err := e.launch("simdrl_h0_partial", [3]int{ceilDiv(H, 128), sH0, 1}, [3]int{128, 1, 1}, 4*(V+e.S)*128, a); err != nil {
		return err
	}
	l := e.l
	sums := []struct {
		part                 devPtr
		S, M, N, ones, split int
		out                  devPtr
		ldo                  int
		bias, out2, bias2    devPtr
	}{
		{e.partWhh, sWhh, G3, H, 1, G3, e.grad.at(l.WHH.Offset), H, e.grad.at(l.BHH.Offset), 0, 0},
		{e.partHeads, sHeads, V1, H, 1, V, e.grad.at(l.PiW.Offset), H, e.grad.at(l.PiB.Offset), e.grad.at(l.VW.Offset), e.grad.at(l.VB.Offset)},
		{e.partTok, sTok, e.NV, G3, 0, e.NV, e.dT, G3, 0, 0, 0},
		{e.partH0, sH0, V + e.S, H, 0, V + e.S, e.h0s, H, 0, 0, 0},
	}
	for _, s := range sums {
		a.reset().ptr("part", s.part).i32("S", s.S).i32("M", s.M).i32("N", s.N).i32("ones", s.ones).i32("split", s.split).
			ptr("out", s.out).i32("ldo", s.ldo).ptr("bias", s.bias).ptr("out2", s.out2).ptr("bias2", s.bias2)
		if err := e.launch("simdrl_sum_slabs", gridFor(s.M*(s.N+s.ones)), block256, 0, a); err != nil {
			return err
		}
	}
	a.reset().ptr("P", e.P).ptr("dT", e.dT).ptr("h0s", e.h0s).i32("d", H).i32("V", V).i32("S", e.S).i32("O", e.O).ptr("grad", e.grad)
	if err := e.launch("simdrl_input_grads", gridFor(G3*H+G3+V*H+e.S*H+e.O*H), block256, 0, a); err != nil || !e.fielded {
		return err
	}
	return e.fieldGradients(R) // (fielded: stepped on the host, no reading steps)
}

// add launches y += x over the parameters' length.
func (e *engine) add(x, y devPtr) error {
	e.a.reset().ptr("x", x).i32("n", e.l.Size).ptr("y", y)
	return e.launch("simdrl_add", gridFor(e.l.Size), block256, 0, &e.a)
}

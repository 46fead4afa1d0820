package main

// The policy head's ZMM forms. policyForwardAVX2 and policyBackwardAVX2 run
// two rows side by side, each in its own YMM registers, and sum each row
// lane by lane over its 8-column chunks before the 8 lanes are combined
// (hreduce). The ZMM forms keep exactly that: one ZMM register holds the
// same chunk of both rows, the first row in its low 256 bits and the
// second in its high ones, so every lane runs the AVX2 lane's instructions
// on the AVX2 lane's data, in the same order, and the final reductions run
// on the two halves separately in the AVX2 order. The gain is that the
// transcendental work (exp, log, the division) of a row pair takes one
// instruction per step instead of two. An odd last row fills both halves
// with itself and keeps the low half's results.

import (
	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// pairAt addresses chunk row 0 and row 1 of a pair (row 1 = row 0 when w = 1).
func pairAt(base, stride reg.GPVirtual, w int) (Mem, Mem) {
	m0 := Mem{Base: base}
	if w == 1 {
		return m0, m0
	}
	return m0, mem(base, stride, 1)
}

// pairMasks are an 8-lane tail's masks: k8 for one row's 256-bit access,
// k16 for both halves of a ZMM register.
type pairMasks struct{ k8, k16 reg.Register }

func loadPairMasks(remBytes reg.GPVirtual) pairMasks {
	k8 := loadMask(remBytes)
	t, k16 := c.K(), c.K()
	c.KSHIFTLW(U8(8), k8, t)
	c.KORW(k8, t, k16)
	return pairMasks{k8, k16}
}

// loadPair loads an 8-lane chunk of two rows into the halves of a ZMM
// register; with a mask, the left-out lanes are zero (as VMASKMOVPS leaves them).
func loadPair(k reg.Register, m0, m1 Mem) reg.VecVirtual {
	z := ymm()
	if k == nil {
		c.VMOVUPS(m0, z.AsY())
		c.VINSERTF64X4(U8(1), m1, z, z)
		return z
	}
	t := ymm()
	c.VMOVUPS_Z(m0, k, z.AsY())
	c.VMOVUPS_Z(m1, k, t.AsY())
	c.VINSERTF64X4(U8(1), t.AsY(), z, z)
	return z
}

// storePair stores the halves of z to two rows (only the low one when w = 1).
func storePair(z reg.VecVirtual, k reg.Register, m0, m1 Mem, w int) {
	if k == nil {
		c.VMOVUPS(z.AsY(), m0)
		if w == 2 {
			c.VEXTRACTF64X4(U8(1), z, m1)
		}
		return
	}
	c.VMOVUPS(z.AsY(), k, m0)
	if w == 2 {
		t := ymm()
		c.VEXTRACTF64X4(U8(1), z, t.AsY())
		c.VMOVUPS(t.AsY(), k, m1)
	}
}

// broadcastPair is a ZMM register with [m0] in its low half and [m1] in its high one.
func broadcastPair(m0, m1 Mem, dword bool) reg.VecVirtual {
	z, t := ymm(), ymm()
	if dword {
		c.VPBROADCASTD(m0, z)
		c.VPBROADCASTD(m1, t.AsY())
	} else {
		c.VBROADCASTSS(m0, z)
		c.VBROADCASTSS(m1, t.AsY())
	}
	c.VINSERTF64X4(U8(1), t.AsY(), z, z)
	return z
}

// hreduceHalves combines the 8 lanes of each half of z with op, as hreduce
// does for a YMM register, and returns each half's result in lane 0 of an
// XMM register.
func hreduceHalves(op func(a, b, d Op), z reg.VecVirtual) (lo, hi reg.VecVirtual) {
	hy := ymm()
	c.VEXTRACTF64X4(U8(1), z, hy.AsY())
	red := func(y reg.VecVirtual) reg.VecVirtual {
		x := c.XMM()
		c.VEXTRACTF32X4(U8(1), y.AsY(), x)
		op(y.AsX(), x, x)
		t := c.XMM()
		c.VPERMILPS(U8(0x4e), x, t)
		op(t, x, x)
		c.VPERMILPS(U8(0xb1), x, t)
		op(t, x, x)
		return x
	}
	return red(z), red(hy)
}

// hreducePair is hreduceHalves with each half's result broadcast to that half.
func hreducePair(op func(a, b, d Op), z reg.VecVirtual) reg.VecVirtual {
	lo, hi := hreduceHalves(op, z)
	r, t := ymm(), ymm()
	c.VBROADCASTSS(lo, r)
	c.VBROADCASTSS(hi, t.AsY())
	c.VINSERTF64X4(U8(1), t.AsY(), r, r)
	return r
}

func vmax(a, b, d Op) { c.VMAXPS(a, b, d) }
func vadd(a, b, d Op) { c.VADDPS(a, b, d) }

func policyForwardZ() {
	c.Function("policyForwardAVX512")
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(rows, cols int, logits []float32, ld int, logp, ent []float32)")
	c.Doc("policyForwardAVX512 is policyForwardAVX2 with each row pair's chunks in the halves of one",
		"ZMM register: the same instructions per lane and the same reduction order, so the same bits.")
	done := label("done")

	rows := ld(c.Param("rows"))
	cols := ld(c.Param("cols"))
	x := ld(c.Param("logits").Base())
	ld4 := ld(c.Param("ld"))
	lp := ld(c.Param("logp").Base())
	ent := ld(c.Param("ent").Base())
	c.TESTQ(rows, rows)
	c.JLE(LabelRef(done))
	c.TESTQ(cols, cols)
	c.JLE(LabelRef(done))
	c.SHLQ(U8(2), ld4)
	nfull, remB := gp(), gp()
	c.MOVQ(cols, nfull)
	c.SHRQ(U8(3), nfull)
	c.MOVQ(cols, remB)
	c.ANDQ(U8(7), remB)
	c.SHLQ(U8(2), remB)
	cols4 := cols
	c.SHLQ(U8(2), cols4)
	mk := loadPairMasks(remB)
	xp := gp()

	rowPairs(rows, func(w int) {
		// Pass 1: each row's maximum (masked lanes keep the running max).
		mx := ymm()
		c.VMOVUPS(cNegInf, mx)
		c.MOVQ(x, xp)
		loopChunks(nfull, func() {
			m0, m1 := pairAt(xp, ld4, w)
			c.VMAXPS(loadPair(nil, m0, m1), mx, mx)
			c.ADDQ(U8(32), xp)
		})
		ifTail(remB, func() {
			m0, m1 := pairAt(xp, ld4, w)
			v := loadPair(mk.k8, m0, m1)
			t := ymm()
			c.VMOVAPS(mx, t)
			c.VMOVAPS(v, mk.k16, t) // mask ? v : mx
			c.VMAXPS(t, mx, mx)
		})
		mx = hreducePair(vmax, mx)

		// Pass 2: Σ exp(v − max).
		sum := ymm()
		c.VXORPS(sum, sum, sum)
		pass2 := func(k reg.Register) {
			m0, m1 := pairAt(xp, ld4, w)
			v := loadPair(k, m0, m1)
			c.VSUBPS(mx, v, v)
			e := expN(v)[0]
			if k != nil {
				c.VMOVAPS_Z(e, mk.k16, e)
			}
			c.VADDPS(e, sum, sum)
		}
		c.MOVQ(x, xp)
		loopChunks(nfull, func() {
			pass2(nil)
			c.ADDQ(U8(32), xp)
		})
		ifTail(remB, func() { pass2(mk.k8) })
		sum = hreducePair(vadd, sum)
		lse := logN(true, sum)[0]
		c.VADDPS(mx, lse, lse)

		// Pass 3: logp = v − lse; entropy −Σ p·log(p+ε), p = exp(logp).
		acc := ymm()
		c.VXORPS(acc, acc, acc)
		pass3 := func(k reg.Register) {
			m0, m1 := pairAt(xp, ld4, w)
			l := loadPair(k, m0, m1)
			c.VSUBPS(lse, l, l)
			s0, s1 := pairAt(lp, cols4, w)
			storePair(l, k, s0, s1, w)
			p := expN(l)[0]
			if k != nil {
				c.VMOVAPS_Z(p, mk.k16, p)
			}
			q := ymm()
			c.VADDPS(cEntEps, p, q)
			lg := logN(false, q)[0] // p is NaN wherever q is
			c.VFMADD231PS(lg, p, acc)
		}
		c.MOVQ(x, xp)
		loopChunks(nfull, func() {
			pass3(nil)
			c.ADDQ(U8(32), xp)
			c.ADDQ(U8(32), lp)
		})
		ifTail(remB, func() {
			pass3(mk.k8)
			c.ADDQ(remB, lp)
		})
		a0, a1 := hreduceHalves(vadd, acc)
		for i, a := range []reg.VecVirtual{a0, a1}[:w] {
			c.VXORPS(cSign, a, a)
			c.VMOVSS(a, Mem{Base: ent, Disp: 4 * i})
		}

		for i := 0; i < w; i++ {
			c.ADDQ(ld4, x)
		}
		if w == 2 {
			c.ADDQ(cols4, lp) // pass 3 moved lp over the first row only
		}
		c.ADDQ(U8(4*w), ent)
	})
	c.Label(done)
	ret()
}

func policyBackwardZ() {
	c.Function("policyBackwardAVX512")
	c.Attributes(attr.NOSPLIT)
	c.Pragma("noescape")
	c.SignatureExpr("func(rows, cols int, logp []float32, actions []int32, dlogp, dent, dlogits []float32, ld int)")
	c.Doc("policyBackwardAVX512 is policyBackwardAVX2 with each row pair's chunks in the halves of one",
		"ZMM register: the same instructions per lane and the same reduction order, so the same bits.")
	done := label("done")

	rows := ld(c.Param("rows"))
	cols := ld(c.Param("cols"))
	lp := ld(c.Param("logp").Base())
	acts := ld(c.Param("actions").Base())
	dlp := ld(c.Param("dlogp").Base())
	dent := ld(c.Param("dent").Base())
	dx := ld(c.Param("dlogits").Base())
	ld4 := ld(c.Param("ld"))
	c.TESTQ(rows, rows)
	c.JLE(LabelRef(done))
	c.TESTQ(cols, cols)
	c.JLE(LabelRef(done))
	c.SHLQ(U8(2), ld4)
	nfull, remB := gp(), gp()
	c.MOVQ(cols, nfull)
	c.SHRQ(U8(3), nfull)
	c.MOVQ(cols, remB)
	c.ANDQ(U8(7), remB)
	c.SHLQ(U8(2), remB)
	cols4 := cols
	c.SHLQ(U8(2), cols4)
	mk := loadPairMasks(remB)
	lpp, dxp := gp(), gp()

	rowPairs(rows, func(w int) {
		// Pass 1: g = −(log(p+ε) + p/(p+ε)) into dlogits (the tail's stays
		// in a register), pg = Σ p·g.
		pg := ymm()
		c.VXORPS(pg, pg, pg)
		grad := func(k reg.Register) reg.VecVirtual {
			m0, m1 := pairAt(lpp, cols4, w)
			p := expN(loadPair(k, m0, m1))[0]
			if k != nil {
				c.VMOVAPS_Z(p, mk.k16, p)
			}
			q, r := ymm(), ymm()
			c.VADDPS(cEntEps, p, q)
			c.VDIVPS(q, p, r)
			g := logN(false, q)[0] // p/(p+ε) is NaN wherever p+ε is
			c.VADDPS(r, g, g)
			c.VXORPS(cSign, g, g)
			c.VFMADD231PS(g, p, pg)
			return g
		}
		c.MOVQ(lp, lpp)
		c.MOVQ(dx, dxp)
		loopChunks(nfull, func() {
			g := grad(nil)
			s0, s1 := pairAt(dxp, ld4, w)
			storePair(g, nil, s0, s1, w)
			c.ADDQ(U8(32), lpp)
			c.ADDQ(U8(32), dxp)
		})
		gTail := ymm()
		ifTail(remB, func() { c.VMOVAPS(grad(mk.k8), gTail) })
		pg = hreducePair(vadd, pg)

		// Pass 2: dx = de·p·(g − pg) − dl·p, plus dl at the action.
		col := ymm() // column index of each lane
		c.VMOVUPS(cIota, col)
		d0, d1 := pairAt(dent, nil, 1)
		l0, l1 := pairAt(dlp, nil, 1)
		a0, a1 := pairAt(acts, nil, 1)
		if w == 2 {
			d1, l1, a1 = d0.Offset(4), l0.Offset(4), a0.Offset(4)
		}
		pass2 := func(k reg.Register, g reg.VecVirtual) {
			m0, m1 := pairAt(lp, cols4, w)
			p := expN(loadPair(k, m0, m1))[0]
			t := broadcastPair(d0, d1, false)
			c.VMULPS(p, t, t) // de·p
			c.VSUBPS(pg, g, g)
			c.VMULPS(g, t, t)
			dl := broadcastPair(l0, l1, false)
			c.VMULPS(p, dl, p)
			c.VSUBPS(p, t, t)
			hit := broadcastPair(a0, a1, true)
			kh := c.K()
			c.VPCMPEQD(col, hit, kh)
			c.VMOVAPS_Z(dl, kh, hit)
			c.VADDPS(hit, t, t)
			s0, s1 := pairAt(dxp, ld4, w)
			storePair(t, k, s0, s1, w)
		}
		c.MOVQ(dx, dxp)
		loopChunks(nfull, func() {
			m0, m1 := pairAt(dxp, ld4, w)
			pass2(nil, loadPair(nil, m0, m1))
			c.VPADDD(cEight, col, col)
			c.ADDQ(U8(32), lp)
			c.ADDQ(U8(32), dxp)
		})
		ifTail(remB, func() {
			pass2(mk.k8, gTail)
			c.ADDQ(remB, lp)
		})

		for i := 0; i < w; i++ {
			c.ADDQ(ld4, dx)
		}
		if w == 2 {
			c.ADDQ(cols4, lp) // pass 2 moved lp over the first row only
		}
		c.ADDQ(U8(4*w), acts)
		c.ADDQ(U8(4*w), dlp)
		c.ADDQ(U8(4*w), dent)
	})
	c.Label(done)
	ret()
}

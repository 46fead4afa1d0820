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
// with itself and keeps the low half's results. The forward runs two such
// pairs side by side (four rows): a pair's three passes wait on each other,
// and the second pair's work fills the waits (BenchmarkPolicyForward on
// Zen 4: docs/performance.md, "Measurements behind design choices"); the
// backward has no general registers left for a second pair.

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
	// Each first write is to the whole ZMM register (a broadcast, or a
	// zeroing masked load whose mask has no high lanes): a write to its YMM
	// half alone would leave the register's high half live back to the
	// function's entry for avo's allocator, which then runs out of registers.
	z := ymm()
	if k == nil {
		c.VBROADCASTF64X4(m0, z)
		c.VINSERTF64X4(U8(1), m1, z, z)
		return z
	}
	t := ymm()
	c.VMOVUPS_Z(m0, k, z)
	c.VMOVUPS_Z(m1, k, t)
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
		"ZMM register, two pairs side by side: the same instructions per lane and the same",
		"reduction order, so the same bits.")
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
	holdConstants(cExpLo, cExpHi)
	defer release()
	// Unit u's pointers into its pair's logits and logp; unit 1 is two rows
	// below unit 0.
	xs := []reg.GPVirtual{gp(), gp()}
	lps := []reg.GPVirtual{lp, gp()} // pass 3 moves lp over a row; the end of body moves it over the rest
	rewind := func(ws []int) {
		c.MOVQ(x, xs[0])
		if len(ws) == 2 {
			c.LEAQ(mem(x, ld4, 2), xs[1])
		}
	}

	// body runs len(ws) units side by side, unit u a pair of rows (ws[u] =
	// 2) or an odd last row (1): a row pair's passes wait on each other
	// (max, then Σ exp, then log), so a second pair's fill the wait.
	body := func(ws []int) {
		units := len(ws)
		// Pass 1: each row's maximum (masked lanes keep the running max).
		mx := fresh(units)
		for u := range ws {
			c.VMOVUPS(cNegInf, mx[u])
		}
		rewind(ws)
		loopChunks(nfull, func() {
			for u, w := range ws {
				m0, m1 := pairAt(xs[u], ld4, w)
				c.VMAXPS(loadPair(nil, m0, m1), mx[u], mx[u])
				c.ADDQ(U8(32), xs[u])
			}
		})
		ifTail(remB, func() {
			for u, w := range ws {
				m0, m1 := pairAt(xs[u], ld4, w)
				v := loadPair(mk.k8, m0, m1)
				t := ymm()
				c.VMOVAPS(mx[u], t)
				c.VMOVAPS(v, mk.k16, t) // mask ? v : mx
				c.VMAXPS(t, mx[u], mx[u])
			}
		})
		for u := range ws {
			mx[u] = hreducePair(vmax, mx[u])
		}

		// Pass 2: Σ exp(v − max).
		sum := fresh(units)
		for u := range ws {
			c.VXORPS(sum[u], sum[u], sum[u])
		}
		pass2 := func(k reg.Register) {
			v := make(vecs, units)
			for u, w := range ws {
				m0, m1 := pairAt(xs[u], ld4, w)
				v[u] = loadPair(k, m0, m1)
				c.VSUBPS(mx[u], v[u], v[u])
			}
			e := expN(v...)
			for u := range ws {
				if k != nil {
					c.VMOVAPS_Z(e[u], mk.k16, e[u])
				}
				c.VADDPS(e[u], sum[u], sum[u])
			}
		}
		rewind(ws)
		loopChunks(nfull, func() {
			pass2(nil)
			for u := range ws {
				c.ADDQ(U8(32), xs[u])
			}
		})
		ifTail(remB, func() { pass2(mk.k8) })
		for u := range ws {
			sum[u] = hreducePair(vadd, sum[u])
		}
		lse := logN(true, sum...)
		for u := range ws {
			c.VADDPS(mx[u], lse[u], lse[u])
		}

		// Pass 3: logp = v − lse; entropy −Σ p·log(p+ε), p = exp(logp).
		acc := fresh(units)
		for u := range ws {
			c.VXORPS(acc[u], acc[u], acc[u])
		}
		pass3 := func(k reg.Register) {
			l := make(vecs, units)
			for u, w := range ws {
				m0, m1 := pairAt(xs[u], ld4, w)
				l[u] = loadPair(k, m0, m1)
				c.VSUBPS(lse[u], l[u], l[u])
				s0, s1 := pairAt(lps[u], cols4, w)
				storePair(l[u], k, s0, s1, w)
			}
			p := expN(l...)
			q := fresh(units)
			for u := range ws {
				if k != nil {
					c.VMOVAPS_Z(p[u], mk.k16, p[u])
				}
				c.VADDPS(cEntEps, p[u], q[u])
			}
			lg := logN(false, q...) // p is NaN wherever q is
			for u := range ws {
				c.VFMADD231PS(lg[u], p[u], acc[u])
			}
		}
		rewind(ws)
		if units == 2 {
			c.LEAQ(mem(lp, cols4, 2), lps[1])
		}
		loopChunks(nfull, func() {
			pass3(nil)
			for u := range ws {
				c.ADDQ(U8(32), xs[u])
				c.ADDQ(U8(32), lps[u])
			}
		})
		ifTail(remB, func() {
			pass3(mk.k8)
			c.ADDQ(remB, lp) // lps[0]: lp is now one row on
		})
		row := 0
		for u, w := range ws {
			a0, a1 := hreduceHalves(vadd, acc[u])
			for i, a := range []reg.VecVirtual{a0, a1}[:w] {
				c.VXORPS(cSign, a, a)
				c.VMOVSS(a, Mem{Base: ent, Disp: 4 * (row + i)})
			}
			row += w
		}

		for i := 0; i < row; i++ {
			c.ADDQ(ld4, x)
			if i > 0 {
				c.ADDQ(cols4, lp)
			}
		}
		c.ADDQ(U8(4*row), ent)
	}

	// Groups of four rows (two pairs), then a pair and an odd last row.
	quads := gp()
	c.MOVQ(rows, quads)
	c.SHRQ(U8(2), quads)
	loopChunks(quads, func() { body([]int{2, 2}) })
	noPair := label("nopair")
	c.TESTQ(U32(2), rows)
	c.JZ(LabelRef(noPair))
	body([]int{2})
	c.Label(noPair)
	noOdd := label("noodd")
	c.TESTQ(U32(1), rows)
	c.JZ(LabelRef(noOdd))
	body([]int{1})
	c.Label(noOdd)
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

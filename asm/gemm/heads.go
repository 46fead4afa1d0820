package main

// The NT kernel for 19 columns (the policy heads, V+1 = 19): 16 columns by
// broadcasts against a packed panel, as in the other kernels, and the last 3
// as dot products along k of A's rows with B's rows, which NT stores with k
// contiguous. A 24-column tile spends 5 of every 24 lanes on padding (≤ 79%
// of peak); here only the reduction of the dot products is overhead.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

const mrH = 5 // rows per block: 5 + 15 accumulators; 15 dot products + 1 fill a 16-input reduction

// kernelHeads generates gemmKernelZ<mr>x19, or with zmm gemmKernelZ<mr>x19Z,
// which runs the 16 broadcast columns as one ZMM vector per row instead of
// two YMM ones: for CPUs with full-rate 512-bit FMAs, where the YMM form is
// held to the 256-bit rate. Each lane sums as in the YMM form (the same FMA
// chain over k, the same dot products and reduction), so the two give the
// same bits.
func kernelHeads(mr int, zmm bool) {
	name := fmt.Sprintf("gemmKernelZ%dx19", mr)
	if zmm {
		name += "Z"
	}
	TEXT(name, NOSPLIT, "func(k int, a *float32, lda int, b *float32, bks int, bt *float32, ldb int, c *float32, ldc, nblk int, alpha, beta float32, mode int, tail int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes nblk blocks of %d rows × 19 columns of C = alpha·A·Bᵀ + beta·C", name, mr),
		"(mode as for the other kernels). Row r, step p of block i of A is at",
		fmt.Sprintf("a[(i·%d + r)·lda + p]. Columns 0..15 come from the packed panel, step p", mr),
		"at b[p·bks]; column 16+d from bt[d·ldb + p], d < 3, as a dot product",
		"(tail: the lane mask of the last k mod 16 steps).")

	aBlk := Load(Param("a"), GP64())
	lda := Load(Param("lda"), GP64())
	SHLQ(U8(2), lda)
	lda3 := GP64()
	LEAQ(Mem{Base: lda, Index: lda, Scale: 2}, lda3)
	bks := Load(Param("bks"), GP64())
	SHLQ(U8(2), bks)
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	cBlk := Load(Param("c"), GP64())
	nblk := Load(Param("nblk"), GP64())

	// The broadcast columns are two YMM vectors per row, not one ZMM: Zen 4
	// spends a shuffle-pipe slot per 256 bits on a broadcast from memory,
	// and with one ZMM FMA per broadcast those slots bound the loop
	// (measured: docs/performance.md, "Measurements behind design choices").
	// (On CPUs with full-rate 512-bit FMAs the zmm form uses one ZMM.)
	nbc, vec, vbytes := 2, YMM, 32
	if zmm {
		nbc, vec, vbytes = 1, ZMM, 64
	}
	bc := make([][]VecVirtual, mr)
	dot := make([][3]VecVirtual, mr)
	for r := range bc {
		bc[r] = make([]VecVirtual, nbc)
		for v := range bc[r] {
			bc[r][v] = vec()
		}
		for d := range dot[r] {
			dot[r][d] = ZMM()
		}
	}
	bv := make([]VecVirtual, nbc)
	for v := range bv {
		bv[v] = vec()
	}
	t := vec()
	var bd [3]VecVirtual
	for d := range bd {
		bd[d] = ZMM()
	}
	a0, bp, btp, cnt := GP64(), GP64(), GP64(), GP64()
	row := func(base, stride, stride3 Register, r, disp int) Mem {
		switch r {
		case 0:
			return Mem{Base: base, Disp: disp}
		case 3:
			return Mem{Base: base, Index: stride3, Scale: 1, Disp: disp}
		default:
			return Mem{Base: base, Index: stride, Scale: uint8(r), Disp: disp}
		}
	}
	// broadcastStep runs one step of k of the 16 broadcast columns, A at
	// byte offset disp from a0.
	broadcastStep := func(disp int) {
		for v := range bv {
			VMOVUPS(Mem{Base: bp, Disp: vbytes * v}, bv[v])
		}
		for r := 0; r < mr; r++ {
			VBROADCASTSS(row(a0, lda, lda3, r, disp), t)
			for v := range bv {
				VFMADD231PS(bv[v], t, bc[r][v])
			}
		}
		ADDQ(bks, bp)
	}
	// dotChunk runs 16 steps of k of the 3 dot-product columns, through
	// the zeroing mask km when it is set.
	dotChunk := func(km Register) {
		load := func(m Mem, z VecVirtual) {
			if km != nil {
				VMOVUPS_Z(m, km, z)
			} else {
				VMOVUPS(m, z)
			}
		}
		for d := range bd {
			if d == 0 {
				load(Mem{Base: btp}, bd[d])
			} else {
				load(Mem{Base: btp, Index: ldb, Scale: uint8(d)}, bd[d])
			}
		}
		av := ZMM()
		for r := 0; r < mr; r++ {
			load(row(a0, lda, lda3, r, 0), av)
			for d := range bd {
				VFMADD231PS(bd[d], av, dot[r][d])
			}
		}
	}

	Label(name + "_block")
	for r := range bc {
		for v := range bc[r] {
			VXORPS(bc[r][v], bc[r][v], bc[r][v])
		}
		for d := range dot[r] {
			VPXORD(dot[r][d], dot[r][d], dot[r][d])
		}
	}
	MOVQ(aBlk, a0)
	Load(Param("b"), bp)
	Load(Param("bt"), btp)
	Load(Param("k"), cnt)
	SHRQ(U8(4), cnt)
	JZ(LabelRef(name + "_tail"))
	Label(name + "_k16")
	// The dot products' FMAs are spread over the 16 broadcast steps, one
	// per step: the broadcast columns are only mr dependency chains, too
	// few to fill the FMA pipes on their own.
	for d := range bd {
		if d == 0 {
			VMOVUPS(Mem{Base: btp}, bd[d])
		} else {
			VMOVUPS(Mem{Base: btp, Index: ldb, Scale: uint8(d)}, bd[d])
		}
	}
	for s := 0; s < 16; s++ {
		broadcastStep(4 * s)
		if r, d := s/3, s%3; r < mr {
			VFMADD231PS(row(a0, lda, lda3, r, 0), bd[d], dot[r][d])
		}
	}
	ADDQ(U8(64), a0)
	ADDQ(U8(64), btp)
	DECQ(cnt)
	JNZ(LabelRef(name + "_k16"))

	Label(name + "_tail")
	Load(Param("k"), cnt)
	ANDQ(U8(15), cnt)
	JZ(LabelRef(name + "_epilogue"))
	km := K()
	tm := GP64()
	Load(Param("tail"), tm)
	KMOVW(tm.As32(), km)
	dotChunk(km)
	Label(name + "_k1")
	broadcastStep(0)
	ADDQ(U8(4), a0)
	DECQ(cnt)
	JNZ(LabelRef(name + "_k1"))

	Label(name + "_epilogue")
	// Reduce the 15 dot products (and a zero) into one vector whose lane
	// 3r+d is row r's column 16+d: pairs of inputs j, j+4 and j+8, j+12 are
	// halved twice with 128-bit shuffles so that quarter q of z[j] holds
	// input 4q+j, then an in-lane 4×4 transpose adds the last 4 partials.
	zero := ZMM()
	VPXORD(zero, zero, zero)
	in := func(i int) VecVirtual {
		if r, d := i/3, i%3; r < mr {
			return dot[r][d]
		}
		return zero
	}
	half := func(x, y VecVirtual, lo, hi uint8) VecVirtual {
		a, b := ZMM(), ZMM()
		VSHUFF32X4(U8(lo), y, x, a)
		VSHUFF32X4(U8(hi), y, x, b)
		VADDPS(b, a, a)
		return a
	}
	var z [4]VecVirtual
	for j := 0; j < 4; j++ {
		y0 := half(in(j), in(j+4), 0x44, 0xee)
		y1 := half(in(j+8), in(j+12), 0x44, 0xee)
		z[j] = half(y0, y1, 0x88, 0xdd)
	}
	pair := func(x, y VecVirtual) VecVirtual {
		lo, hi := ZMM(), ZMM()
		VUNPCKLPS(y, x, lo)
		VUNPCKHPS(y, x, hi)
		VADDPS(hi, lo, lo)
		return lo
	}
	s01, s23 := pair(z[0], z[1]), pair(z[2], z[3])
	res, u := ZMM(), ZMM()
	VSHUFPS(U8(0x44), s23, s01, res)
	VSHUFPS(U8(0xee), s23, s01, u)
	VADDPS(u, res, res)

	mode := mustAddr(Param("mode"))
	TESTQ(U32(modeAlpha), mode)
	JZ(LabelRef(name + "_alpha1"))
	alphaZ := ZMM()
	VBROADCASTSS(mustAddr(Param("alpha")), alphaZ)
	alphaBC := Op(alphaZ.AsY())
	if zmm {
		alphaBC = alphaZ
	}
	for r := range bc {
		for v := range bc[r] {
			VMULPS(alphaBC, bc[r][v], bc[r][v])
		}
	}
	VMULPS(alphaZ, res, res)
	Label(name + "_alpha1")

	ldc, ldc3 := GP64(), GP64()
	Load(Param("ldc"), ldc)
	SHLQ(U8(2), ldc)
	LEAQ(Mem{Base: ldc, Index: ldc, Scale: 2}, ldc3)
	k3, three := K(), GP64()
	MOVL(U32(7), three.As32())
	KMOVW(three.As32(), k3)
	betaZ, tmp := ZMM(), ZMM()
	VBROADCASTSS(mustAddr(Param("beta")), betaZ)
	beta := GP64()
	MOVQ(mode, beta)
	ANDQ(U8(modeAlpha-1), beta)
	next := name + "_next"
	// addBeta adds the beta term of mode m from C at cm to x, through the
	// 3-lane mask when masked.
	addBeta := func(m int, cm Mem, x VecVirtual, masked bool) {
		src, bz := Op(cm), Op(betaZ)
		if masked {
			VMOVUPS_Z(cm, k3, tmp)
			src = tmp
		} else if x.Size() == 32 {
			bz = betaZ.AsY()
		}
		switch m {
		case betaOne:
			VADDPS(src, x, x)
		case betaOther:
			VFMADD231PS(src, bz, x)
		}
	}
	store := func(label string, m int) {
		Label(label)
		for r := 0; r < mr; r++ {
			for v := range bc[r] {
				cm := row(cBlk, ldc, ldc3, r, vbytes*v)
				addBeta(m, cm, bc[r][v], false)
				VMOVUPS(bc[r][v], cm)
			}
			x := u // free now: row r's 3 lanes rotated to lanes 0..2
			VALIGND(U8(3*r), res, res, x)
			cd := row(cBlk, ldc, ldc3, r, 64)
			addBeta(m, cd, x, true)
			VMOVUPS(x, k3, cd)
		}
		JMP(LabelRef(next))
	}
	CMPQ(beta, U8(betaZero))
	JE(LabelRef(name + "_beta0"))
	CMPQ(beta, U8(betaOne))
	JE(LabelRef(name + "_beta1"))
	store(name+"_betaN", betaOther)
	store(name+"_beta1", betaOne)
	store(name+"_beta0", betaZero)

	Label(next)
	for r := 0; r < mr; r++ {
		ADDQ(lda, aBlk)
		ADDQ(ldc, cBlk)
	}
	DECQ(nblk)
	JNZ(LabelRef(name + "_block"))
	VZEROUPPER()
	RET()
}

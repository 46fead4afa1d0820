package main

// The AVX-512 micro-kernels. Zen 4 runs a 512-bit FMA as two 256-bit halves,
// so these do not add multiply-add throughput; they win by the register
// file: 32 ZMM registers hold an 8×48 tile of C (24 accumulators), so each
// step of k costs 3 loads of op(B) and 8 broadcasts per 48 256-bit FMAs,
// against 3 and 4 per 24 in the AVX2 4×24 kernel, and a tile covers four
// times the C of the AVX2 one, so the per-tile setup, loop and epilogue
// branches weigh a quarter as much. Column tails use an opmask instead of a
// mask vector.

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

const (
	mrZ = 8  // the most rows of a ZMM tile
	nvZ = 3  // the most ZMM vectors (16 floats each) per tile row
	nrZ = 48 // panel width in floats
)

// kernelZ generates gemmKernelZ<mr>x<16·nv>: like the AVX2 kernels, over
// nblk blocks of mr rows, but nv ZMM vectors wide and the last vector of
// each row stored through the 16-bit lane mask.
func kernelZ(mr, nv int) {
	name := fmt.Sprintf("gemmKernelZ%dx%d", mr, 16*nv)
	TEXT(name, NOSPLIT, "func(k int, a *float32, rs, ks, as int, b *float32, bks int, c *float32, ldc, nblk int, alpha, beta float32, mode int, mask int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s computes nblk blocks of %d rows × %d columns of C as the", name, mr, 16*nv),
		"AVX2 kernels do, writing only the lanes of the last 16-column vector",
		"selected by mask (bit j: column j of that vector).")

	aBlk := Load(Param("a"), GP64())
	rs := Load(Param("rs"), GP64())
	SHLQ(U8(2), rs)
	ks := Load(Param("ks"), GP64())
	SHLQ(U8(2), ks)
	bks := Load(Param("bks"), GP64())
	SHLQ(U8(2), bks)
	cBlk := Load(Param("c"), GP64())
	nblk := Load(Param("nblk"), GP64())
	var rs3 GPVirtual
	if mr > 3 {
		rs3 = GP64()
		LEAQ(Mem{Base: rs, Index: rs, Scale: 2}, rs3)
	}

	acc := make([][]VecVirtual, mr)
	for r := range acc {
		acc[r] = make([]VecVirtual, nv)
		for v := range acc[r] {
			acc[r][v] = ZMM()
		}
	}
	bv := make([]VecVirtual, nv)
	for v := range bv {
		bv[v] = ZMM()
	}
	t := ZMM()

	a0, bp, cnt := GP64(), GP64(), GP64()
	var a4 GPVirtual
	if mr > 4 {
		a4 = GP64()
	}
	// row returns base + r·stride for r < 8, with base4 = base + 4·stride
	// and stride3 = 3·stride.
	row := func(base, base4, stride, stride3 Register, r, disp int) Mem {
		b := base
		if r >= 4 {
			b, r = base4, r-4
		}
		switch r {
		case 0:
			return Mem{Base: b, Disp: disp}
		case 3:
			return Mem{Base: b, Index: stride3, Scale: 1, Disp: disp}
		default:
			return Mem{Base: b, Index: stride, Scale: uint8(r), Disp: disp}
		}
	}
	step := func() {
		for v := 0; v < nv; v++ {
			VMOVUPS(Mem{Base: bp, Disp: 64 * v}, bv[v])
		}
		for r := 0; r < mr; r++ {
			VBROADCASTSS(row(a0, a4, rs, rs3, r, 0), t)
			for v := 0; v < nv; v++ {
				VFMADD231PS(bv[v], t, acc[r][v])
			}
		}
		ADDQ(ks, a0)
		if mr > 4 {
			ADDQ(ks, a4)
		}
		ADDQ(bks, bp)
	}

	Label(name + "_block")
	for r := range acc {
		for v := range acc[r] {
			VPXORD(acc[r][v], acc[r][v], acc[r][v])
		}
	}
	MOVQ(aBlk, a0)
	if mr > 4 {
		LEAQ(Mem{Base: a0, Index: rs, Scale: 4}, a4)
	}
	Load(Param("b"), bp)
	Load(Param("k"), cnt)
	SHRQ(U8(2), cnt)
	JZ(LabelRef(name + "_ktail"))
	Label(name + "_k4")
	for u := 0; u < unroll; u++ {
		step()
	}
	DECQ(cnt)
	JNZ(LabelRef(name + "_k4"))
	Label(name + "_ktail")
	Load(Param("k"), cnt)
	ANDQ(U8(unroll-1), cnt)
	JZ(LabelRef(name + "_epilogue"))
	Label(name + "_k1")
	step()
	DECQ(cnt)
	JNZ(LabelRef(name + "_k1"))

	Label(name + "_epilogue")
	alphaZ, betaZ, tmp := bv[0], t, ZMM()
	mode := mustAddr(Param("mode"))
	TESTQ(U32(modeAlpha), mode)
	JZ(LabelRef(name + "_alpha1"))
	VBROADCASTSS(mustAddr(Param("alpha")), alphaZ)
	for r := range acc {
		for v := range acc[r] {
			VMULPS(alphaZ, acc[r][v], acc[r][v])
		}
	}
	Label(name + "_alpha1")
	ldc, ldc3, c4 := GP64(), GP64(), GP64()
	Load(Param("ldc"), ldc)
	SHLQ(U8(2), ldc)
	LEAQ(Mem{Base: ldc, Index: ldc, Scale: 2}, ldc3)
	LEAQ(Mem{Base: cBlk, Index: ldc, Scale: 4}, c4)
	km := K()
	mk := GP64()
	Load(Param("mask"), mk)
	KMOVW(mk.As32(), km)
	VBROADCASTSS(mustAddr(Param("beta")), betaZ)
	beta := GP64()
	MOVQ(mode, beta)
	ANDQ(U8(modeAlpha-1), beta)
	next := name + "_next"

	// store adds the beta term of mode m and writes the tile, the last
	// vector of each row through km when masked is set. Full panels take
	// the unmasked path: on Zen 4 a masked store costs more than a plain
	// one even with every lane set.
	store := func(label string, m int, masked bool) {
		Label(label)
		for r := 0; r < mr; r++ {
			for v := 0; v < nv; v++ {
				cm := row(cBlk, c4, ldc, ldc3, r, 64*v)
				partial := masked && v == nv-1
				if m != betaZero {
					src := Op(cm)
					if partial {
						VMOVUPS_Z(cm, km, tmp)
						src = tmp
					}
					if m == betaOne {
						VADDPS(src, acc[r][v], acc[r][v])
					} else {
						VFMADD231PS(src, betaZ, acc[r][v])
					}
				}
				if partial {
					VMOVUPS(acc[r][v], km, cm)
				} else {
					VMOVUPS(acc[r][v], cm)
				}
			}
		}
		JMP(LabelRef(next))
	}
	CMPQ(mk, U32(0xffff))
	JNE(LabelRef(name + "_masked"))
	for _, masked := range []bool{false, true} {
		l := name
		if masked {
			l += "_masked"
			Label(l)
		}
		CMPQ(beta, U8(betaZero))
		JE(LabelRef(l + "_beta0"))
		CMPQ(beta, U8(betaOne))
		JE(LabelRef(l + "_beta1"))
		store(l+"_betaN", betaOther, masked)
		store(l+"_beta1", betaOne, masked)
		store(l+"_beta0", betaZero, masked)
	}

	Label(next)
	as := Load(Param("as"), GP64())
	SHLQ(U8(2), as)
	ADDQ(as, aBlk)
	for r := 0; r < mr; r++ {
		ADDQ(ldc, cBlk)
	}
	DECQ(nblk)
	JNZ(LabelRef(name + "_block"))
	VZEROUPPER()
	RET()
}

// packT16 generates gemmPackT16x48, NT's packing of Bᵀ for the ZMM tile:
// 16 rows of B × 16 steps of k at a time, transposed in registers (unpack
// pairs, shuffle quads, then two rounds of 128-bit lane shuffles: 64
// shuffles per 256 floats, against 96 for four 8×8 YMM transposes) and
// written as 16 steps of 16 adjacent columns of a 48-wide panel.
func packT16() {
	const name = "gemmPackT16x48"
	TEXT(name, NOSPLIT, "func(kc16 int, b *float32, ldb, rows int, dst *float32)")
	Pragma("noescape")
	Doc(name+" writes dst[p·48+j] = b[j·ldb+p] for p < kc16 (a multiple of 16)",
		"and j < 16, with zeros for the rows j ≥ rows, which are not read.")
	l := func(s string) string { return name + "_" + s }
	kc16 := Load(Param("kc16"), GP64())
	SHRQ(U8(4), kc16)
	JZ(LabelRef(l("done")))
	b0 := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	rows := Load(Param("rows"), GP64())
	dst := Load(Param("dst"), GP64())
	ldb3 := GP64()
	LEAQ(Mem{Base: ldb, Index: ldb, Scale: 2}, ldb3)
	base := [4]Register{b0, GP64(), GP64(), GP64()}
	for g := 1; g < 4; g++ {
		LEAQ(Mem{Base: base[g-1], Index: ldb, Scale: 4}, base[g])
	}
	rowAddr := func(i int) Mem {
		b := base[i/4]
		switch i % 4 {
		case 0:
			return Mem{Base: b}
		case 3:
			return Mem{Base: b, Index: ldb3, Scale: 1}
		default:
			return Mem{Base: b, Index: ldb, Scale: uint8(i % 4)}
		}
	}
	var r, s [16]VecVirtual
	for i := range r {
		r[i], s[i] = ZMM(), ZMM()
	}
	Label(l("loop"))
	for i := 0; i < 16; i++ {
		CMPQ(rows, U8(i))
		JLE(LabelRef(fmt.Sprintf("%s_zero%d", name, i)))
		VMOVUPS(rowAddr(i), r[i])
	}
	JMP(LabelRef(l("transpose")))
	for i := 0; i < 16; i++ {
		Label(fmt.Sprintf("%s_zero%d", name, i))
		VPXORD(r[i], r[i], r[i])
	}
	Label(l("transpose"))
	// s[2i], s[2i+1]: rows 2i and 2i+1 interleaved (low, high pairs of
	// each 128-bit lane).
	for i := 0; i < 16; i += 2 {
		VUNPCKLPS(r[i+1], r[i], s[i])
		VUNPCKHPS(r[i+1], r[i], s[i+1])
	}
	// r[4g+c]: column c + 4·L of rows 4g..4g+3 in lane L.
	for i := 0; i < 16; i += 4 {
		VSHUFPS(U8(0x44), s[i+2], s[i], r[i])
		VSHUFPS(U8(0xEE), s[i+2], s[i], r[i+1])
		VSHUFPS(U8(0x44), s[i+3], s[i+1], r[i+2])
		VSHUFPS(U8(0xEE), s[i+3], s[i+1], r[i+3])
	}
	// s[8h+c]: columns c, c+8 of rows 8h..8h+3 and 8h+4..8h+7 in lanes
	// 0..3 (lanes 0, 2 of r[8h+c] and r[8h+4+c]); s[8h+4+c] the same for
	// columns c+4, c+12.
	for h := 0; h < 2; h++ {
		for c := 0; c < 4; c++ {
			VSHUFF32X4(U8(0x88), r[8*h+4+c], r[8*h+c], s[8*h+c])
			VSHUFF32X4(U8(0xDD), r[8*h+4+c], r[8*h+c], s[8*h+4+c])
		}
	}
	// r[j]: column j of all 16 rows.
	for c := 0; c < 4; c++ {
		VSHUFF32X4(U8(0x88), s[8+c], s[c], r[c])
		VSHUFF32X4(U8(0xDD), s[8+c], s[c], r[8+c])
		VSHUFF32X4(U8(0x88), s[12+c], s[4+c], r[4+c])
		VSHUFF32X4(U8(0xDD), s[12+c], s[4+c], r[12+c])
	}
	for j := 0; j < 16; j++ {
		VMOVUPS(r[j], Mem{Base: dst, Disp: j * 4 * nrZ})
	}
	for g := 0; g < 4; g++ {
		ADDQ(U8(64), base[g])
	}
	ADDQ(U32(16*4*nrZ), dst)
	DECQ(kc16)
	JNZ(LabelRef(l("loop")))
	Label(l("done"))
	VZEROUPPER()
	RET()
}

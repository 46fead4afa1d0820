// Command gemm generates the AVX2+FMA and AVX-512 single-precision GEMM
// kernels of package kernels (kernels/gemm_amd64.s and its Go stubs) with avo. Run it through
// `go generate ./kernels/` from the repository root; see kernels/gemm_generate.go
// and, for the loops around these routines, kernels/gemm_amd64.go.
//
//   - gemmKernel{1,2,3,4}x24[Masked]: C = alpha·op(A)·op(B) + beta·C for nblk
//     blocks of mr rows against one panel of 24 columns of op(B). op(A) is
//     read through strides (rs between rows, ks between steps of k, as
//     between blocks) and op(B) through bks between steps of k, so the same
//     kernel serves A and Aᵀ, packed or in place. The accumulators are mr×3
//     YMM registers; each step of k is 3 loads of op(B), mr broadcasts of
//     op(A) and 3·mr FMAs. The Masked variants write only the first nc
//     columns of C (nv vectors, the last through a mask).
//   - gemmPackN: copies a kc×(24·np) block of a row-major B into np panels.
//   - gemmPackA4: packs TN's Aᵀ in blocks of 4 columns, 4 values per step of k.
//   - gemmKernelZ{1..8}x{16,32,48}, gemmPackN48, gemmPackA8: the AVX-512
//     tile, up to 8 rows × 3 ZMM vectors (avx512.go).
//   - gemmKernelZ{1..5}x19[Z]: NT for 19 columns, 16 by broadcasts (two YMM
//     vectors per row, or one ZMM in the Z form) and 3 as dot products
//     (heads.go).
//   - gemmPackT8: transposes up to 8 rows × kc8 columns of B (NT) into 8
//     columns of a panel, filling missing rows with zeros.
//   - gemmPackT16x48: the same for up to 16 rows × kc16 columns into 16
//     columns of a 48-wide panel of the AVX-512 tile, with 16×16 ZMM
//     transposes (avx512.go).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/gotypes"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

const (
	nr     = 24     // panel width in floats
	nvec   = nr / 8 // YMM vectors per panel row
	rowB   = nr * 4 // bytes per panel row
	unroll = 4      // k steps per iteration of the main loop

	prefetchShift = 3 // packing prefetches the source 1<<prefetchShift rows ahead
)

func main() {
	ConstraintExpr("amd64,!purego")
	for mr := 1; mr <= 4; mr++ {
		kernel(mr, false)
		kernel(mr, true)
	}
	packN(nr)
	packA(4)
	packT()
	for mr := 1; mr <= mrZ; mr++ {
		for nv := 1; nv <= nvZ; nv++ {
			kernelZ(mr, nv)
		}
	}
	for mr := 1; mr <= mrH; mr++ {
		kernelHeads(mr, false)
	}
	packN(nrZ)
	packA(mrZ)
	packT16()
	for mr := 1; mr <= mrH; mr++ {
		kernelHeads(mr, true)
	}
	Generate()
}

// Epilogue modes, decided by the Go driver once per call: a beta mode, plus
// modeAlpha unless alpha is 1.
const (
	betaZero  = 0 // C = alpha·acc (C is not read)
	betaOne   = 1 // C = alpha·acc + C
	betaOther = 2 // C = alpha·acc + beta·C
	modeAlpha = 4 // multiply acc by alpha
)

func kernel(mr int, masked bool) {
	name := fmt.Sprintf("gemmKernel%dx24", mr)
	sig := "func(k int, a *float32, rs, ks, as int, b *float32, bks int, c *float32, ldc, nblk int, alpha, beta float32, mode int"
	if masked {
		name += "Masked"
		sig += ", mask *int32, nv int"
	}
	sig += ")"
	TEXT(name, NOSPLIT, sig)
	Pragma("noescape")
	if masked {
		Doc(name+" is "+fmt.Sprintf("gemmKernel%dx24", mr)+" writing only the columns of C selected",
			"by nv (vectors touched, 1..3) and mask (8 lanes of the last touched vector).")
	} else {
		Doc(fmt.Sprintf("%s computes nblk blocks of %d rows × 24 columns of", name, mr),
			"C = alpha·A·B + beta·C (mode&3 0: beta=0, C not read; 1: beta=1; 2: any",
			"beta; mode&4: alpha ≠ 1). Row r, step p of block i of A is at",
			"a[i·as + r·rs + p·ks]; step p of B is the 24 floats at b[p·bks];",
			fmt.Sprintf("block i of C starts at c + i·%d·ldc.", mr))
	}

	k := Load(Param("k"), GP64())
	aBlk := Load(Param("a"), GP64())
	rs := Load(Param("rs"), GP64())
	SHLQ(U8(2), rs)
	ks := Load(Param("ks"), GP64())
	SHLQ(U8(2), ks)
	bBase := Load(Param("b"), GP64())
	bks := Load(Param("bks"), GP64())
	SHLQ(U8(2), bks)
	cBlk := Load(Param("c"), GP64())
	ldc := Load(Param("ldc"), GP64())
	SHLQ(U8(2), ldc)
	nblk := Load(Param("nblk"), GP64())

	acc := make([][nvec]VecVirtual, mr)
	for r := range acc {
		for v := 0; v < nvec; v++ {
			acc[r][v] = YMM()
		}
	}
	var bv [nvec]VecVirtual
	for v := range bv {
		bv[v] = YMM()
	}
	t := YMM()

	a0, a2, bp, cnt := GP64(), GP64(), GP64(), GP64()
	// aRow returns the address of row r of A at the current k step.
	aRow := func(r int) Mem {
		switch r {
		case 0:
			return Mem{Base: a0}
		case 1:
			return Mem{Base: a0, Index: rs, Scale: 1}
		case 2:
			return Mem{Base: a2}
		default:
			return Mem{Base: a2, Index: rs, Scale: 1}
		}
	}
	step := func() {
		for v := 0; v < nvec; v++ {
			VMOVUPS(Mem{Base: bp, Disp: 32 * v}, bv[v])
		}
		for r := 0; r < mr; r++ {
			VBROADCASTSS(aRow(r), t)
			for v := 0; v < nvec; v++ {
				VFMADD231PS(bv[v], t, acc[r][v])
			}
		}
		ADDQ(ks, a0)
		if mr > 2 {
			ADDQ(ks, a2)
		}
		ADDQ(bks, bp)
	}

	Label(name + "_block")
	for r := range acc {
		for v := 0; v < nvec; v++ {
			VXORPS(acc[r][v], acc[r][v], acc[r][v])
		}
	}
	MOVQ(aBlk, a0)
	if mr > 2 {
		LEAQ(Mem{Base: a0, Index: rs, Scale: 2}, a2)
	}
	MOVQ(bBase, bp)
	MOVQ(k, cnt)
	SHRQ(U8(2), cnt)
	JZ(LabelRef(name + "_ktail"))
	Label(name + "_k4")
	for u := 0; u < unroll; u++ {
		step()
	}
	DECQ(cnt)
	JNZ(LabelRef(name + "_k4"))
	Label(name + "_ktail")
	MOVQ(k, cnt)
	ANDQ(U8(unroll-1), cnt)
	JZ(LabelRef(name + "_epilogue"))
	Label(name + "_k1")
	step()
	DECQ(cnt)
	JNZ(LabelRef(name + "_k1"))

	Label(name + "_epilogue")
	// The B registers and t are free now: alpha, beta, mask, scratch.
	alphaY, betaY, maskY, tmp := bv[0], bv[1], bv[2], t
	mode := mustAddr(Param("mode"))
	TESTQ(U32(modeAlpha), mode)
	JZ(LabelRef(name + "_alpha1"))
	VBROADCASTSS(mustAddr(Param("alpha")), alphaY)
	for r := range acc {
		for v := 0; v < nvec; v++ {
			VMULPS(alphaY, acc[r][v], acc[r][v])
		}
	}
	Label(name + "_alpha1")
	c2 := cnt // free now
	if mr > 2 {
		LEAQ(Mem{Base: cBlk, Index: ldc, Scale: 2}, c2)
	}
	cRow := func(r, v int) Mem {
		switch r {
		case 0:
			return Mem{Base: cBlk, Disp: 32 * v}
		case 1:
			return Mem{Base: cBlk, Index: ldc, Scale: 1, Disp: 32 * v}
		case 2:
			return Mem{Base: c2, Disp: 32 * v}
		default:
			return Mem{Base: c2, Index: ldc, Scale: 1, Disp: 32 * v}
		}
	}
	VBROADCASTSS(mustAddr(Param("beta")), betaY)
	beta := GP64()
	MOVQ(mode, beta)
	ANDQ(U8(modeAlpha-1), beta)
	next := name + "_next"

	// store writes acc[r][v] for the first nv vectors, the last one masked
	// when masked is set, after adding the beta term of the given mode.
	store := func(label string, nv int, m int) {
		Label(label)
		if masked {
			mp := Load(Param("mask"), GP64())
			VMOVUPS(Mem{Base: mp}, maskY)
		}
		for r := 0; r < mr; r++ {
			for v := 0; v < nv; v++ {
				partial := masked && v == nv-1
				cm := cRow(r, v)
				switch {
				case m == betaOne && !partial:
					VADDPS(cm, acc[r][v], acc[r][v])
				case m == betaOther && !partial:
					VFMADD231PS(cm, betaY, acc[r][v])
				case m == betaOne:
					VMASKMOVPS(cm, maskY, tmp)
					VADDPS(tmp, acc[r][v], acc[r][v])
				case m == betaOther:
					VMASKMOVPS(cm, maskY, tmp)
					VFMADD231PS(tmp, betaY, acc[r][v])
				}
				if partial {
					VMASKMOVPS(acc[r][v], maskY, cm)
				} else {
					VMOVUPS(acc[r][v], cm)
				}
			}
		}
		JMP(LabelRef(next))
	}
	nvs := []int{nvec}
	if masked {
		nvs = []int{1, 2, 3}
	}
	for _, nv := range nvs {
		lbl := fmt.Sprintf("%s_nv%d", name, nv)
		if masked {
			CMPQ(mustAddr(Param("nv")), U8(nv))
			JNE(LabelRef(lbl + "_skip"))
		}
		CMPQ(beta, U8(betaZero))
		JE(LabelRef(lbl + "_beta0"))
		CMPQ(beta, U8(betaOne))
		JE(LabelRef(lbl + "_beta1"))
		store(lbl+"_betaN", nv, betaOther)
		store(lbl+"_beta1", nv, betaOne)
		store(lbl+"_beta0", nv, betaZero)
		if masked {
			Label(lbl + "_skip")
		}
	}

	Label(next)
	// Next block of rows.
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

func mustAddr(c gotypes.Component) Mem {
	b, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return b.Addr
}

// packN copies kc rows of np panels of w floats (24 with YMM or 48 with ZMM
// moves) from a row-major B into np panels, reading B row by row.
func packN(w int) {
	name := "gemmPackN"
	if w != nr {
		name = fmt.Sprintf("gemmPackN%d", w)
	}
	TEXT(name, NOSPLIT, "func(kc, np int, b *float32, ldb int, dst *float32, ps int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s copies dst[q·ps + p·%d + j] = b[p·ldb + q·%d + j] for p < kc, q < np, j < %d.", name, w, w, w))
	l := func(s string) string { return name + "_" + s }
	kc := Load(Param("kc"), GP64())
	TESTQ(kc, kc)
	JZ(LabelRef(l("done")))
	b := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	dst := Load(Param("dst"), GP64())
	ps := Load(Param("ps"), GP64())
	SHLQ(U8(2), ps)
	src, d, q := GP64(), GP64(), GP64()
	pf := GP64() // prefetch distance in bytes
	MOVQ(ldb, pf)
	SHLQ(U8(prefetchShift), pf)
	vbytes, vec := 32, YMM
	if w == nrZ {
		vbytes, vec = 64, ZMM
	}
	y := make([]VecVirtual, 4*w/vbytes)
	for v := range y {
		y[v] = vec()
	}
	Label(l("row"))
	MOVQ(b, src)
	MOVQ(dst, d)
	Load(Param("np"), q)
	Label(l("panel"))
	for off := 0; off < 4*w; off += 64 {
		PREFETCHT0(Mem{Base: src, Index: pf, Scale: 1, Disp: off})
	}
	for v := range y {
		VMOVUPS(Mem{Base: src, Disp: vbytes * v}, y[v])
	}
	for v := range y {
		VMOVUPS(y[v], Mem{Base: d, Disp: vbytes * v})
	}
	ADDQ(U8(4*w), src)
	ADDQ(ps, d)
	DECQ(q)
	JNZ(LabelRef(l("panel")))
	ADDQ(ldb, b)
	ADDQ(U8(4*w), dst)
	DECQ(kc)
	JNZ(LabelRef(l("row")))
	Label(l("done"))
	VZEROUPPER()
	RET()
}

// packA packs TN's Aᵀ in blocks of w (4 or 8) columns so that each block's
// w values of a step of k are adjacent; a last block of rest < w columns is
// copied element by element.
func packA(w int) {
	name := fmt.Sprintf("gemmPackA%d", w)
	TEXT(name, NOSPLIT, "func(kc, nb, rest int, a *float32, lda int, dst *float32, bs int)")
	Pragma("noescape")
	Doc(fmt.Sprintf("%s copies dst[i·bs + p·%d + r] = a[p·lda + i·%d + r] for p < kc and", name, w, w),
		fmt.Sprintf("either i < nb, r < %d or i = nb, r < rest.", w))
	l := func(s string) string { return name + "_" + s }
	kc := Load(Param("kc"), GP64())
	TESTQ(kc, kc)
	JZ(LabelRef(l("done")))
	a := Load(Param("a"), GP64())
	lda := Load(Param("lda"), GP64())
	SHLQ(U8(2), lda)
	dst := Load(Param("dst"), GP64())
	bs := Load(Param("bs"), GP64()) // bytes between blocks in dst
	SHLQ(U8(2), bs)
	src, d, i := GP64(), GP64(), GP64()
	pf := GP64() // prefetch distance in bytes
	MOVQ(lda, pf)
	SHLQ(U8(prefetchShift), pf)
	x, y := XMM(), XMM() // y: a block's w values
	if w == 8 {
		y = YMM()
	}
	Label(l("row"))
	MOVQ(a, src)
	MOVQ(dst, d)
	Load(Param("nb"), i)
	TESTQ(i, i)
	JZ(LabelRef(l("rest")))
	Label(l("block"))
	PREFETCHT0(Mem{Base: src, Index: pf, Scale: 1})
	VMOVUPS(Mem{Base: src}, y)
	VMOVUPS(y, Mem{Base: d})
	ADDQ(U8(4*w), src)
	ADDQ(bs, d)
	DECQ(i)
	JNZ(LabelRef(l("block")))
	Label(l("rest"))
	Load(Param("rest"), i)
	TESTQ(i, i)
	JZ(LabelRef(l("next")))
	Label(l("elem"))
	VMOVSS(Mem{Base: src}, x)
	VMOVSS(x, Mem{Base: d})
	ADDQ(U8(4), src)
	ADDQ(U8(4), d)
	DECQ(i)
	JNZ(LabelRef(l("elem")))
	Label(l("next"))
	ADDQ(lda, a)
	ADDQ(U8(4*w), dst)
	DECQ(kc)
	JNZ(LabelRef(l("row")))
	Label(l("done"))
	if w == 8 {
		VZEROUPPER()
	}
	RET()
}

// packT transposes rows (≤ 8 valid) × kc8 of B into 8 panel columns.
func packT() {
	TEXT("gemmPackT8", NOSPLIT, "func(kc8 int, b *float32, ldb, rows int, dst *float32)")
	Pragma("noescape")
	Doc("gemmPackT8 writes dst[p·24+j] = b[j·ldb+p] for p < kc8 (a multiple of 8) and",
		"j < 8, with zeros for the rows j ≥ rows, which are not read.")
	kc8 := Load(Param("kc8"), GP64())
	SHRQ(U8(3), kc8)
	JZ(LabelRef("packT_done"))
	b0 := Load(Param("b"), GP64())
	ldb := Load(Param("ldb"), GP64())
	SHLQ(U8(2), ldb)
	rows := Load(Param("rows"), GP64())
	dst := Load(Param("dst"), GP64())
	b3, b6 := GP64(), GP64()
	LEAQ(Mem{Base: b0, Index: ldb, Scale: 2}, b3)
	ADDQ(ldb, b3)
	LEAQ(Mem{Base: b3, Index: ldb, Scale: 2}, b6)
	ADDQ(ldb, b6)
	rowAddr := []Mem{
		{Base: b0}, {Base: b0, Index: ldb, Scale: 1}, {Base: b0, Index: ldb, Scale: 2},
		{Base: b3}, {Base: b3, Index: ldb, Scale: 1}, {Base: b3, Index: ldb, Scale: 2},
		{Base: b6}, {Base: b6, Index: ldb, Scale: 1},
	}
	var r, s [8]VecVirtual
	for i := range r {
		r[i], s[i] = YMM(), YMM()
	}
	Label("packT_loop")
	for i := 0; i < 8; i++ {
		CMPQ(rows, U8(i))
		JLE(LabelRef(fmt.Sprintf("packT_zero%d", i)))
		VMOVUPS(rowAddr[i], r[i])
	}
	JMP(LabelRef("packT_transpose"))
	for i := 0; i < 8; i++ {
		Label(fmt.Sprintf("packT_zero%d", i))
		VXORPS(r[i], r[i], r[i])
	}
	Label("packT_transpose")
	// 8×8 transpose: unpack pairs, shuffle quads, swap 128-bit halves.
	for i := 0; i < 8; i += 2 {
		VUNPCKLPS(r[i+1], r[i], s[i])
		VUNPCKHPS(r[i+1], r[i], s[i+1])
	}
	// s0 = r0/r1 lo, s1 = r0/r1 hi, s2 = r2/r3 lo, s3 = r2/r3 hi, ...
	for i := 0; i < 8; i += 4 {
		VSHUFPS(U8(0x44), s[i+2], s[i], r[i])
		VSHUFPS(U8(0xEE), s[i+2], s[i], r[i+1])
		VSHUFPS(U8(0x44), s[i+3], s[i+1], r[i+2])
		VSHUFPS(U8(0xEE), s[i+3], s[i+1], r[i+3])
	}
	// r0..r3: columns 0,1,2,3 of rows 0-3 (low lane) and 4,5,6,7 (high lane);
	// r4..r7 the same for rows 4-7.
	for q := 0; q < 4; q++ {
		VPERM2F128(U8(0x20), r[4+q], r[q], s[q])
		VPERM2F128(U8(0x31), r[4+q], r[q], s[4+q])
	}
	for q := 0; q < 8; q++ {
		VMOVUPS(s[q], Mem{Base: dst, Disp: q * rowB})
	}
	ADDQ(U8(32), b0)
	ADDQ(U8(32), b3)
	ADDQ(U8(32), b6)
	ADDQ(U32(8*rowB), dst)
	DECQ(kc8)
	JNZ(LabelRef("packT_loop"))
	Label("packT_done")
	VZEROUPPER()
	RET()
}

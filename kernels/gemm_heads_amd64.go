//go:build !purego

package kernels

// NT with 19 columns (the policy heads, V+1 = 19) on AVX-512: each block of
// 5 rows runs gemmKernelZ<mr>x19 (../asm/gemm/heads.go), which computes
// columns 0..15 by broadcasts against a packed panel of Bᵀ and columns
// 16..18 as dot products of A's rows with B's rows, both contiguous in k.
// The AVX2 tile pads 19 columns to 24, so at most 19/24 of its lanes
// (79% of peak) do work there.
// Where 512-bit FMAs run at full rate, gemmKernelZ<mr>x19Z, the same kernel
// with the 16 broadcast columns in one ZMM vector per row, runs instead.

const gemmMRH = 5 // rows per block of the heads kernel

type gemmHeadsKernels = [gemmMRH]func(k int, a *float32, lda int, b *float32, bks int, bt *float32, ldb int, c *float32, ldc, nblk int, alpha, beta float32, mode int, tail int)

// gemmKernelsH[mr-1] is the heads kernel for blocks of mr rows: the 16
// broadcast columns as two YMM vectors per row, which is faster where
// 512-bit FMAs are double-pumped (Zen 4; see ../asm/gemm/heads.go).
var gemmKernelsH = gemmHeadsKernels{
	gemmKernelZ1x19, gemmKernelZ2x19, gemmKernelZ3x19, gemmKernelZ4x19, gemmKernelZ5x19,
}

// gemmKernelsHZ: the same with one ZMM vector per row, for CPUs with
// full-rate 512-bit FMAs, where the YMM form is held to the 256-bit rate.
// Each lane sums as in gemmKernelsH: the two give the same bits.
var gemmKernelsHZ = gemmHeadsKernels{
	gemmKernelZ1x19Z, gemmKernelZ2x19Z, gemmKernelZ3x19Z, gemmKernelZ4x19Z, gemmKernelZ5x19Z,
}

// sgemmNTAVX512 is NT on the AVX-512 CPUs the dispatch rule has no
// measurement of (Intel's client cores, Hygon): the heads kernel for 19
// columns, the AVX2 tile for the rest.
func sgemmNTAVX512(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if n != 19 || k == 0 {
		gemmRun(&gemmTileAVX2, gemmNT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	sgemmNTHeads(&gemmKernelsH, m, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemmNTAVX512Zen4 is NT on Zen 4, whose 512-bit FMAs are double-pumped:
// the heads kernel in two YMM vectors a row for 19 columns, the ZMM tile
// for the rest (gemmTileAVX512NT), both measured fastest there
// (dispatch_amd64.go, zen4). Its results are those of sgemmNTAVX512.
func sgemmNTAVX512Zen4(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if n != 19 || k == 0 {
		gemmRun(&gemmTileAVX512NT, gemmNT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	sgemmNTHeads(&gemmKernelsH, m, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// sgemmNTAVX512Z is NT where 512-bit FMAs run at full rate (Zen 5, Intel
// server cores): the heads kernel's ZMM form for 19 columns, the ZMM tile
// for the rest, which sums as the AVX2 tile does (gemmTileAVX512NT), so its
// results are those of sgemmNTAVX512 bit for bit.
func sgemmNTAVX512Z(m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if n != 19 || k == 0 {
		gemmRun(&gemmTileAVX512NT, gemmNT, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	sgemmNTHeads(&gemmKernelsHZ, m, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func sgemmNTHeads(kern *gemmHeadsKernels, m, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	s := gemmScratchFree.get()
	gemmHeads(kern, s.b[:], m, k, alpha, a, lda, b, ldb, beta, c, ldc)
	gemmScratchFree.put(s)
}

// gemmHeads runs C = alpha·A·Bᵀ + beta·C for n = 19 in blocks of k with
// the kernels kern, bbuf holding the packed panel of Bᵀ's first 16 columns.
func gemmHeads(kern *gemmHeadsKernels, bbuf []float32, m, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	kcStep := gemmKCStep(k, gemmKC)
	full, rest := m/gemmMRH, m%gemmMRH
	for pc := 0; pc < k; pc += kcStep {
		kc := min(kcStep, k-pc)
		bt := beta
		if pc > 0 {
			bt = 1 // later k blocks accumulate onto the first
		}
		mode := gemmMode(alpha, bt)
		gemmPackBT16(bbuf, kc, b[pc:], ldb)
		tail := 1<<(kc%16) - 1
		dots := &b[16*ldb+pc]
		if full > 0 {
			kern[gemmMRH-1](kc, &a[pc], lda, &bbuf[0], gemmNR, dots, ldb, &c[0], ldc, full, alpha, bt, mode, tail)
		}
		if rest > 0 {
			i := full * gemmMRH
			kern[rest-1](kc, &a[i*lda+pc], lda, &bbuf[0], gemmNR, dots, ldb, &c[i*ldc], ldc, 1, alpha, bt, mode, tail)
		}
	}
}

// gemmPackBT16 packs the first 16 rows of B (NT), columns [0, kc), as
// columns 0..15 of a 24-wide panel: bbuf[p·24 + j] = b[j·ldb + p].
func gemmPackBT16(bbuf []float32, kc int, b []float32, ldb int) {
	kc8 := kc &^ 7
	if kc8 > 0 {
		gemmPackT8(kc8, &b[0], ldb, 8, &bbuf[0])
		gemmPackT8(kc8, &b[8*ldb], ldb, 8, &bbuf[8])
	}
	for p := kc8; p < kc; p++ {
		for j := 0; j < 16; j++ {
			bbuf[p*gemmNR+j] = b[j*ldb+p]
		}
	}
}

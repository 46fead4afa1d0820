//go:build !purego

#include "textflag.h"

// NEON GRU gate step (see gru.go for the equations). Four lanes of j at a
// time; the last d%4 columns run through the same code one lane at a time
// (scalar loads zero the other lanes). The Go assembler has no vector
// FADD/FMUL/FDIV/FMIN/FRINTN/FCVTZS…, so those are WORDs with the mnemonic
// alongside (checked by TestNEONWords).
//
// Only exp(x) for x ≤ 0 is needed, so nothing overflows: x is clamped below
// at −104 (FMAX keeps NaN), k = rint(x·log2e), r = x − k·ln2 in two parts,
// exp(r) by Cephes' expf polynomial (|r| ≤ ln2/2, about 1 ulp), times 2^k as
// two normal powers of two so that results in the subnormal range round
// correctly. With e = exp(−|x|):
//
//	σ(x)    = 1/(1+e) for x > 0, e/(1+e) otherwise
//	tanh(x) = sign(x)·(1−e')/(1+e') with e' = exp(−2|x|) for |x| > 0.625,
//	          Cephes' tanhf odd polynomial below.
//
// Large |x| saturate to exactly 0/1 and ±1; NaN propagates.

// func gruForwardNEON(rows, d int, table []float32, tokens []int32, gh, hPrev, hNext, act []float32)
TEXT ·gruForwardNEON(SB), NOSPLIT, $0-160
	MOVW  $0x3f800000, R0 // 1
	VDUP  R0, V31.S4
	MOVW  $0x3fb8aa3b, R0 // log2(e)
	VDUP  R0, V30.S4
	MOVW  $0x3f318000, R0 // ln2 high part (exact in 9 bits, so k·hi is exact)
	VDUP  R0, V29.S4
	MOVW  $0xb95e8083, R0 // ln2 low part
	VDUP  R0, V28.S4
	MOVW  $0x39506967, R0 // exp polynomial (Cephes expf) P0
	VDUP  R0, V27.S4
	MOVW  $0x3ab743ce, R0 // P1
	VDUP  R0, V26.S4
	MOVW  $0x3c088908, R0 // P2
	VDUP  R0, V25.S4
	MOVW  $0x3d2aa9c1, R0 // P3
	VDUP  R0, V24.S4
	MOVW  $0x3e2aaaaa, R0 // P4
	VDUP  R0, V23.S4
	MOVW  $0x3f000000, R0 // P5
	VDUP  R0, V22.S4
	MOVW  $0xc2d00000, R0 // smallest exp argument: exp(-104) rounds to 0, k ≥ -150
	VDUP  R0, V20.S4
	MOVW  $0xbbbaf0ea, R0 // tanh polynomial (Cephes tanhf) T0
	VDUP  R0, V19.S4
	MOVW  $0x3ca9134e, R0 // T1
	VDUP  R0, V18.S4
	MOVW  $0xbd5c1e2d, R0 // T2
	VDUP  R0, V17.S4
	MOVW  $0x3e088393, R0 // T3
	VDUP  R0, V16.S4
	MOVW  $0xbeaaaa99, R0 // T4
	VDUP  R0, V15.S4
	MOVW  $0x3f200000, R0 // tanh: polynomial below, exp above
	VDUP  R0, V14.S4
	MOVW  $0x80000000, R0 // sign bit
	VDUP  R0, V13.S4

	MOVD  rows+0(FP), R12
	MOVD  d+8(FP), R15
	MOVD  table_base+16(FP), R14
	MOVD  tokens_base+40(FP), R13
	MOVD  gh_base+64(FP), R4
	MOVD  hPrev_base+88(FP), R7
	MOVD  hNext_base+112(FP), R11
	MOVD  act_base+136(FP), R8
	LSL   $2, R15, R16 // d in bytes
	ADD   R16, R16, R20 // 2d in bytes: skip from one gate's row end to the next row
	ADD   R16, R20, R19 // 3d in bytes: one row of table, gh, act
	ADD   R16, R4, R5
	ADD   R16, R5, R6
	ADD   R16, R8, R9
	ADD   R16, R9, R10

row:
	CBZ   R12, done
	MOVW.P 4(R13), R17 // token
	MUL   R17, R19, R1
	ADD   R14, R1 // gi_r
	ADD   R16, R1, R2 // gi_z
	ADD   R16, R2, R3 // gi_n
	MOVD  R15, R0 // columns left in this row

loop:
	CMP   $4, R0
	BLT   one
	VLD1.P 16(R1), [V0.S4]
	VLD1.P 16(R2), [V1.S4]
	VLD1.P 16(R3), [V2.S4]
	VLD1.P 16(R4), [V3.S4]
	VLD1.P 16(R5), [V4.S4]
	VLD1.P 16(R6), [V5.S4]
	VLD1.P 16(R7), [V6.S4]
	B     compute

one:
	CBZ   R0, rowend
	FMOVS.P 4(R1), F0
	FMOVS.P 4(R2), F1
	FMOVS.P 4(R3), F2
	FMOVS.P 4(R4), F3
	FMOVS.P 4(R5), F4
	FMOVS.P 4(R6), F5
	FMOVS.P 4(R7), F6

compute:
	// V0..V2 = gi (r, z, n), V3..V5 = gh (r, z, n), V6 = h.
	// r, z: σ via e = exp(−|x|), two exps interleaved.
	WORD $0x4e23d400 // fadd v0.4s, v0.4s, v3.4s
	WORD $0x4e24d421 // fadd v1.4s, v1.4s, v4.4s
	WORD $0x4ea0c80b // fcmgt v11.4s, v0.4s, #0
	WORD $0x4ea0c82c // fcmgt v12.4s, v1.4s, #0
	VORR  V13.B16, V0.B16, V0.B16 // −|x|
	VORR  V13.B16, V1.B16, V1.B16
	WORD $0x4e34f400 // fmax v0.4s, v0.4s, v20.4s
	WORD $0x4e34f421 // fmax v1.4s, v1.4s, v20.4s
	WORD $0x6e3edc03 // fmul v3.4s, v0.4s, v30.4s
	WORD $0x6e3edc24 // fmul v4.4s, v1.4s, v30.4s
	WORD $0x4e218863 // frintn v3.4s, v3.4s
	WORD $0x4e218884 // frintn v4.4s, v4.4s
	VFMLS V29.S4, V3.S4, V0.S4 // x -= k·ln2hi
	VFMLS V29.S4, V4.S4, V1.S4 // x -= k·ln2hi
	VFMLS V28.S4, V3.S4, V0.S4 // x -= k·ln2lo
	VFMLS V28.S4, V4.S4, V1.S4 // x -= k·ln2lo
	WORD $0x4ea1b863 // fcvtzs v3.4s, v3.4s
	WORD $0x4ea1b884 // fcvtzs v4.4s, v4.4s
	VMOV  V26.B16, V7.B16
	VFMLA V27.S4, V0.S4, V7.S4
	VMOV  V26.B16, V8.B16
	VFMLA V27.S4, V1.S4, V8.S4
	VMOV  V25.B16, V9.B16
	VFMLA V7.S4, V0.S4, V9.S4
	VMOV  V25.B16, V10.B16
	VFMLA V8.S4, V1.S4, V10.S4
	VMOV  V24.B16, V7.B16
	VFMLA V9.S4, V0.S4, V7.S4
	VMOV  V24.B16, V8.B16
	VFMLA V10.S4, V1.S4, V8.S4
	VMOV  V23.B16, V9.B16
	VFMLA V7.S4, V0.S4, V9.S4
	VMOV  V23.B16, V10.B16
	VFMLA V8.S4, V1.S4, V10.S4
	VMOV  V22.B16, V7.B16
	VFMLA V9.S4, V0.S4, V7.S4
	VMOV  V22.B16, V8.B16
	VFMLA V10.S4, V1.S4, V8.S4
	WORD $0x6e20dc09 // fmul v9.4s, v0.4s, v0.4s
	WORD $0x6e21dc2a // fmul v10.4s, v1.4s, v1.4s
	VFMLA V7.S4, V9.S4, V0.S4 // x + y·x²
	VFMLA V8.S4, V10.S4, V1.S4 // x + y·x²
	WORD $0x4e3fd400 // fadd v0.4s, v0.4s, v31.4s
	WORD $0x4e3fd421 // fadd v1.4s, v1.4s, v31.4s
	// ·2^k as ·2^(k>>1)·2^(k−k>>1): both factors normal down to k = −150
	WORD $0x4f3f0467 // sshr v7.4s, v3.4s, #1
	WORD $0x4f3f0488 // sshr v8.4s, v4.4s, #1
	VSUB  V7.S4, V3.S4, V3.S4
	VSUB  V8.S4, V4.S4, V4.S4
	VSHL  $23, V7.S4, V7.S4
	VSHL  $23, V8.S4, V8.S4
	VSHL  $23, V3.S4, V3.S4
	VSHL  $23, V4.S4, V4.S4
	VADD  V31.S4, V7.S4, V7.S4 // + bits of 1.0: 2^(k>>1)
	VADD  V31.S4, V8.S4, V8.S4 // + bits of 1.0: 2^(k>>1)
	VADD  V31.S4, V3.S4, V3.S4
	VADD  V31.S4, V4.S4, V4.S4
	WORD $0x6e27dc00 // fmul v0.4s, v0.4s, v7.4s
	WORD $0x6e28dc21 // fmul v1.4s, v1.4s, v8.4s
	WORD $0x6e23dc00 // fmul v0.4s, v0.4s, v3.4s
	WORD $0x6e24dc21 // fmul v1.4s, v1.4s, v4.4s
	// e = exp(−|x|): σ = (x > 0 ? 1 : e)/(1 + e)
	WORD $0x4e3fd407 // fadd v7.4s, v0.4s, v31.4s
	WORD $0x4e3fd428 // fadd v8.4s, v1.4s, v31.4s
	VBSL  V0.B16, V31.B16, V11.B16
	VBSL  V1.B16, V31.B16, V12.B16
	WORD $0x6e27fd60 // fdiv v0.4s, v11.4s, v7.4s
	WORD $0x6e28fd81 // fdiv v1.4s, v12.4s, v8.4s
	// n = tanh(gi_n + r·gh_n)
	VFMLA V5.S4, V0.S4, V2.S4
	WORD $0x4ea0f843 // fabs v3.4s, v2.4s
	WORD $0x6eaee464 // fcmgt v4.4s, v3.4s, v14.4s
	// |x| > 0.625: e = exp(−2|x|), (1−e)/(1+e) with the sign of x
	WORD $0x4e23d465 // fadd v5.4s, v3.4s, v3.4s
	VORR  V13.B16, V5.B16, V5.B16 // −2|x|
	WORD $0x4e34f4a5 // fmax v5.4s, v5.4s, v20.4s
	WORD $0x6e3edca7 // fmul v7.4s, v5.4s, v30.4s
	WORD $0x4e2188e7 // frintn v7.4s, v7.4s
	VFMLS V29.S4, V7.S4, V5.S4 // x -= k·ln2hi
	VFMLS V28.S4, V7.S4, V5.S4 // x -= k·ln2lo
	WORD $0x4ea1b8e7 // fcvtzs v7.4s, v7.4s
	VMOV  V26.B16, V8.B16
	VFMLA V27.S4, V5.S4, V8.S4
	VMOV  V25.B16, V9.B16
	VFMLA V8.S4, V5.S4, V9.S4
	VMOV  V24.B16, V8.B16
	VFMLA V9.S4, V5.S4, V8.S4
	VMOV  V23.B16, V9.B16
	VFMLA V8.S4, V5.S4, V9.S4
	VMOV  V22.B16, V8.B16
	VFMLA V9.S4, V5.S4, V8.S4
	WORD $0x6e25dca9 // fmul v9.4s, v5.4s, v5.4s
	VFMLA V8.S4, V9.S4, V5.S4 // x + y·x²
	WORD $0x4e3fd4a5 // fadd v5.4s, v5.4s, v31.4s
	// ·2^k as ·2^(k>>1)·2^(k−k>>1): both factors normal down to k = −150
	WORD $0x4f3f04e8 // sshr v8.4s, v7.4s, #1
	VSUB  V8.S4, V7.S4, V7.S4
	VSHL  $23, V8.S4, V8.S4
	VSHL  $23, V7.S4, V7.S4
	VADD  V31.S4, V8.S4, V8.S4 // + bits of 1.0: 2^(k>>1)
	VADD  V31.S4, V7.S4, V7.S4
	WORD $0x6e28dca5 // fmul v5.4s, v5.4s, v8.4s
	WORD $0x6e27dca5 // fmul v5.4s, v5.4s, v7.4s
	WORD $0x4ea5d7e7 // fsub v7.4s, v31.4s, v5.4s
	WORD $0x4e25d7e8 // fadd v8.4s, v31.4s, v5.4s
	WORD $0x6e28fce7 // fdiv v7.4s, v7.4s, v8.4s
	VBIT  V13.B16, V2.B16, V7.B16 // copy the sign of x
	// |x| ≤ 0.625: x + x·s·T(s), s = x²
	WORD $0x6e22dc48 // fmul v8.4s, v2.4s, v2.4s
	VMOV  V18.B16, V9.B16
	VFMLA V19.S4, V8.S4, V9.S4
	VMOV  V17.B16, V10.B16
	VFMLA V9.S4, V8.S4, V10.S4
	VMOV  V16.B16, V9.B16
	VFMLA V10.S4, V8.S4, V9.S4
	VMOV  V15.B16, V10.B16
	VFMLA V9.S4, V8.S4, V10.S4
	WORD $0x6e28dd49 // fmul v9.4s, v10.4s, v8.4s
	VMOV  V2.B16, V10.B16
	VFMLA V9.S4, V2.S4, V10.S4
	VBSL  V10.B16, V7.B16, V4.B16 // n = |x| > 0.625 ? big : small
	// h' = (1 − z)·n + z·h, rounded as the generic twin on arm64: (1−z)·n, then a fused z·h
	WORD $0x4ea1d7e5 // fsub v5.4s, v31.4s, v1.4s
	WORD $0x6e24dca5 // fmul v5.4s, v5.4s, v4.4s
	VFMLA V6.S4, V1.S4, V5.S4

	CMP   $4, R0
	BLT   store1
	VST1.P [V0.S4], 16(R8)
	VST1.P [V1.S4], 16(R9)
	VST1.P [V4.S4], 16(R10)
	VST1.P [V5.S4], 16(R11)
	SUB   $4, R0
	B     loop

store1:
	FMOVS.P F0, 4(R8)
	FMOVS.P F1, 4(R9)
	FMOVS.P F4, 4(R10)
	FMOVS.P F5, 4(R11)
	SUB   $1, R0
	B     loop

rowend:
	// gh and act: skip the other two gates to the next row.
	ADD   R20, R4
	ADD   R20, R5
	ADD   R20, R6
	ADD   R20, R8
	ADD   R20, R9
	ADD   R20, R10
	SUB   $1, R12
	B     row

done:
	RET

// func gruBackNEON(rows, d int, tokens []int32, act, gh, hPrev, dhNext, dgh, dhPrev, dTable []float32)
//
// Pure arithmetic, with the roundings of the generic twin as the Go compiler
// builds it for arm64 (which fuses 1 − n·n and the last product of each
// dTable update into FMSUB/FMADD), so the two agree to the bit.
TEXT ·gruBackNEON(SB), NOSPLIT, $0-208
	FMOVS $1.0, F31
	VDUP  V31.S[0], V31.S4
	MOVD  rows+0(FP), R14
	MOVD  d+8(FP), R21
	MOVD  tokens_base+16(FP), R15
	MOVD  act_base+40(FP), R1
	MOVD  gh_base+64(FP), R4
	MOVD  hPrev_base+88(FP), R5
	MOVD  dhNext_base+112(FP), R6
	MOVD  dgh_base+136(FP), R7
	MOVD  dhPrev_base+160(FP), R13
	MOVD  dTable_base+184(FP), R16
	LSL   $2, R21, R22 // d in bytes
	ADD   R22, R22, R20 // 2d in bytes
	ADD   R22, R20, R19 // 3d in bytes
	ADD   R22, R1, R2 // act_z
	ADD   R22, R2, R3 // act_n
	ADD   R20, R4 // gh_n
	ADD   R22, R7, R8 // dg_z
	ADD   R22, R8, R9 // dg_n

brow:
	CBZ   R14, bdone
	MOVW.P 4(R15), R17 // token
	MUL   R17, R19, R10
	ADD   R16, R10 // dt_r
	ADD   R22, R10, R11 // dt_z
	ADD   R22, R11, R12 // dt_n
	MOVD  R21, R0

bloop:
	CMP   $4, R0
	BLT   bone
	VLD1.P 16(R1), [V0.S4]
	VLD1.P 16(R2), [V1.S4]
	VLD1.P 16(R3), [V2.S4]
	VLD1.P 16(R4), [V3.S4]
	VLD1.P 16(R5), [V4.S4]
	VLD1.P 16(R6), [V5.S4]
	VLD1  (R10), [V6.S4]
	VLD1  (R11), [V7.S4]
	VLD1  (R12), [V8.S4]
	B     bcompute

bone:
	CBZ   R0, browend
	FMOVS.P 4(R1), F0
	FMOVS.P 4(R2), F1
	FMOVS.P 4(R3), F2
	FMOVS.P 4(R4), F3
	FMOVS.P 4(R5), F4
	FMOVS.P 4(R6), F5
	FMOVS (R10), F6
	FMOVS (R11), F7
	FMOVS (R12), F8

bcompute:
	// V0 r, V1 z, V2 n, V3 gh_n, V4 h, V5 dh', V6..V8 dTable (r, z, n).
	WORD $0x4ea1d7e9 // fsub v9.4s, v31.4s, v1.4s
	WORD $0x6e25dd2a // fmul v10.4s, v9.4s, v5.4s
	WORD $0x4ea2d48b // fsub v11.4s, v4.4s, v2.4s
	WORD $0x6e25dd6b // fmul v11.4s, v11.4s, v5.4s
	VMOV  V31.B16, V12.B16
	VFMLS V2.S4, V2.S4, V12.S4 // 1 − n·n
	WORD $0x6e2add8f // fmul v15.4s, v12.4s, v10.4s
	WORD $0x6e2fdc6d // fmul v13.4s, v3.4s, v15.4s
	WORD $0x6e20ddad // fmul v13.4s, v13.4s, v0.4s
	WORD $0x4ea0d7ee // fsub v14.4s, v31.4s, v0.4s
	WORD $0x6e2dddd0 // fmul v16.4s, v14.4s, v13.4s
	VFMLA V14.S4, V13.S4, V6.S4 // dTable_r += (1−r)·(dan·gh_n·r)
	WORD $0x6e2bdc2b // fmul v11.4s, v1.4s, v11.4s
	WORD $0x6e29dd71 // fmul v17.4s, v11.4s, v9.4s
	VFMLA V9.S4, V11.S4, V7.S4 // dTable_z += (1−z)·(dz·z)
	WORD $0x6e20ddf2 // fmul v18.4s, v15.4s, v0.4s
	VFMLA V12.S4, V10.S4, V8.S4 // dTable_n += dn·(1−n²)
	WORD $0x6e21dca5 // fmul v5.4s, v5.4s, v1.4s

	CMP   $4, R0
	BLT   bstore1
	VST1.P [V16.S4], 16(R7)
	VST1.P [V17.S4], 16(R8)
	VST1.P [V18.S4], 16(R9)
	VST1.P [V6.S4], 16(R10)
	VST1.P [V7.S4], 16(R11)
	VST1.P [V8.S4], 16(R12)
	VST1.P [V5.S4], 16(R13)
	SUB   $4, R0
	B     bloop

bstore1:
	FMOVS.P F16, 4(R7)
	FMOVS.P F17, 4(R8)
	FMOVS.P F18, 4(R9)
	FMOVS.P F6, 4(R10)
	FMOVS.P F7, 4(R11)
	FMOVS.P F8, 4(R12)
	FMOVS.P F5, 4(R13)
	SUB   $1, R0
	B     bloop

browend:
	ADD   R20, R1
	ADD   R20, R2
	ADD   R20, R3
	ADD   R20, R4
	ADD   R20, R7
	ADD   R20, R8
	ADD   R20, R9
	SUB   $1, R14
	B     brow

bdone:
	RET

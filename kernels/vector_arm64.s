//go:build !purego

#include "textflag.h"

// NEON whole-buffer helpers: tanh, exp and dst += src (see vector.go).
// tanh and exp run eight elements a step (two vectors interleaved, so that
// the polynomial chains overlap), then one vector of four, then single
// elements through the same code (a scalar load zeroes the other lanes; the
// spare lanes compute garbage that is never stored). Nothing is read or
// written outside the slices. Vector FADD/FMUL/FDIV/FMAX/FRINTN/FCVTZS…
// are not in the Go assembler: WORDs with the mnemonic alongside (checked
// by TestNEONWords).
//
// exp(x), as in gru_arm64.s but for any sign: x is clamped to [−104, 89]
// (FMAX/FMIN keep NaN), k = rint(x·log2e), r = x − k·ln2 in two parts,
// exp(r) by Cephes' expf polynomial (|r| ≤ ln2/2, about 1 ulp), times 2^k
// as two normal powers of two (−150 ≤ k ≤ 128), so that results round
// correctly into the subnormals and to 0 (x < −103.97), and overflow to
// +Inf for x > ln(MaxFloat32) ≈ 88.72, as float32(math.Exp(x)) does.
//
// tanh(x) = sign(x)·t(|x|): t(a) = (1−e)/(1+e) with e = exp(−2a) for
// a > 0.625, Cephes' tanhf odd polynomial a + a·s·T(s), s = a², below;
// the sign bit of x is put back last, so tanh(−0) = −0, large |x| give
// exactly ±1 and NaN propagates. Both are within 2 ulp of the float64
// reference, 1 ulp measured (TestNEONVectorULP).

// func tanhNEON(dst, src []float32)
TEXT ·tanhNEON(SB), NOSPLIT, $0-48
	MOVW  $0x3f800000, R3 // 1
	VDUP  R3, V31.S4
	MOVW  $0x3fb8aa3b, R3 // log2(e)
	VDUP  R3, V30.S4
	MOVW  $0x3f318000, R3 // ln2 high part (exact in 9 bits, so k·hi is exact)
	VDUP  R3, V29.S4
	MOVW  $0xb95e8083, R3 // ln2 low part
	VDUP  R3, V28.S4
	MOVW  $0x39506967, R3 // exp polynomial (Cephes expf) P0
	VDUP  R3, V27.S4
	MOVW  $0x3ab743ce, R3 // P1
	VDUP  R3, V26.S4
	MOVW  $0x3c088908, R3 // P2
	VDUP  R3, V25.S4
	MOVW  $0x3d2aa9c1, R3 // P3
	VDUP  R3, V24.S4
	MOVW  $0x3e2aaaaa, R3 // P4
	VDUP  R3, V23.S4
	MOVW  $0x3f000000, R3 // P5
	VDUP  R3, V22.S4
	MOVW  $0xc2d00000, R3 // −104: exp(−104) rounds to 0, k ≥ −150
	VDUP  R3, V20.S4
	MOVW  $0xbbbaf0ea, R3 // tanh polynomial (Cephes tanhf) T0
	VDUP  R3, V19.S4
	MOVW  $0x3ca9134e, R3 // T1
	VDUP  R3, V18.S4
	MOVW  $0xbd5c1e2d, R3 // T2
	VDUP  R3, V17.S4
	MOVW  $0x3e088393, R3 // T3
	VDUP  R3, V16.S4
	MOVW  $0xbeaaaa99, R3 // T4
	VDUP  R3, V15.S4
	MOVW  $0x3f200000, R3 // 0.625: polynomial below, exp above
	VDUP  R3, V14.S4

	MOVD  dst_base+0(FP), R0
	MOVD  dst_len+8(FP), R2
	MOVD  src_base+24(FP), R1

tloop:
	CMP   $8, R2
	BLT   tfour
	VLD1.P 32(R1), [V0.S4, V1.S4]
	B     tcompute

tfour:
	CMP   $4, R2
	BLT   tone
	VLD1.P 16(R1), [V0.S4]
	B     tcompute

tone:
	CBZ   R2, tdone
	FMOVS.P 4(R1), F0

tcompute:
	// V0, V1 = x; V2, V3 = a = |x|.
	WORD $0x4ea0f802 // fabs v2.4s, v0.4s
	WORD $0x4ea0f823 // fabs v3.4s, v1.4s
	// Large a: e = exp(−2a) in V6, V7 (k in V8, V9).
	WORD $0x4e22d446 // fadd v6.4s, v2.4s, v2.4s
	WORD $0x4e23d467 // fadd v7.4s, v3.4s, v3.4s
	WORD $0x6ea0f8c6 // fneg v6.4s, v6.4s
	WORD $0x6ea0f8e7 // fneg v7.4s, v7.4s
	WORD $0x4e34f4c6 // fmax v6.4s, v6.4s, v20.4s
	WORD $0x4e34f4e7 // fmax v7.4s, v7.4s, v20.4s
	WORD $0x6e3edcc8 // fmul v8.4s, v6.4s, v30.4s
	WORD $0x6e3edce9 // fmul v9.4s, v7.4s, v30.4s
	WORD $0x4e218908 // frintn v8.4s, v8.4s
	WORD $0x4e218929 // frintn v9.4s, v9.4s
	VFMLS V29.S4, V8.S4, V6.S4 // r = t − k·ln2hi
	VFMLS V29.S4, V9.S4, V7.S4
	VFMLS V28.S4, V8.S4, V6.S4 // r −= k·ln2lo
	VFMLS V28.S4, V9.S4, V7.S4
	WORD $0x4ea1b908 // fcvtzs v8.4s, v8.4s
	WORD $0x4ea1b929 // fcvtzs v9.4s, v9.4s
	VMOV  V26.B16, V4.B16
	VFMLA V27.S4, V6.S4, V4.S4
	VMOV  V26.B16, V5.B16
	VFMLA V27.S4, V7.S4, V5.S4
	VMOV  V25.B16, V10.B16
	VFMLA V4.S4, V6.S4, V10.S4
	VMOV  V25.B16, V11.B16
	VFMLA V5.S4, V7.S4, V11.S4
	VMOV  V24.B16, V4.B16
	VFMLA V10.S4, V6.S4, V4.S4
	VMOV  V24.B16, V5.B16
	VFMLA V11.S4, V7.S4, V5.S4
	VMOV  V23.B16, V10.B16
	VFMLA V4.S4, V6.S4, V10.S4
	VMOV  V23.B16, V11.B16
	VFMLA V5.S4, V7.S4, V11.S4
	VMOV  V22.B16, V4.B16
	VFMLA V10.S4, V6.S4, V4.S4
	VMOV  V22.B16, V5.B16
	VFMLA V11.S4, V7.S4, V5.S4
	WORD $0x6e26dcca // fmul v10.4s, v6.4s, v6.4s
	WORD $0x6e27dceb // fmul v11.4s, v7.4s, v7.4s
	VFMLA V4.S4, V10.S4, V6.S4 // r + y·r²
	VFMLA V5.S4, V11.S4, V7.S4
	WORD $0x4e3fd4c6 // fadd v6.4s, v6.4s, v31.4s
	WORD $0x4e3fd4e7 // fadd v7.4s, v7.4s, v31.4s
	// ·2^k as ·2^(k>>1)·2^(k−k>>1): both factors normal down to k = −150
	WORD $0x4f3f050a // sshr v10.4s, v8.4s, #1
	WORD $0x4f3f052b // sshr v11.4s, v9.4s, #1
	VSUB  V10.S4, V8.S4, V8.S4
	VSUB  V11.S4, V9.S4, V9.S4
	VSHL  $23, V10.S4, V10.S4
	VSHL  $23, V11.S4, V11.S4
	VSHL  $23, V8.S4, V8.S4
	VSHL  $23, V9.S4, V9.S4
	VADD  V31.S4, V10.S4, V10.S4 // + bits of 1.0: 2^(k>>1)
	VADD  V31.S4, V11.S4, V11.S4
	VADD  V31.S4, V8.S4, V8.S4
	VADD  V31.S4, V9.S4, V9.S4
	WORD $0x6e2adcc6 // fmul v6.4s, v6.4s, v10.4s
	WORD $0x6e2bdce7 // fmul v7.4s, v7.4s, v11.4s
	WORD $0x6e28dcc6 // fmul v6.4s, v6.4s, v8.4s
	WORD $0x6e29dce7 // fmul v7.4s, v7.4s, v9.4s
	// big = (1−e)/(1+e) in V4, V5
	WORD $0x4ea6d7e4 // fsub v4.4s, v31.4s, v6.4s
	WORD $0x4ea7d7e5 // fsub v5.4s, v31.4s, v7.4s
	WORD $0x4e26d7e6 // fadd v6.4s, v31.4s, v6.4s
	WORD $0x4e27d7e7 // fadd v7.4s, v31.4s, v7.4s
	WORD $0x6e26fc84 // fdiv v4.4s, v4.4s, v6.4s
	WORD $0x6e27fca5 // fdiv v5.4s, v5.4s, v7.4s
	// Small a: a + a·s·T(s), s = a² in V6, V7.
	WORD $0x6e22dc46 // fmul v6.4s, v2.4s, v2.4s
	WORD $0x6e23dc67 // fmul v7.4s, v3.4s, v3.4s
	VMOV  V18.B16, V8.B16
	VFMLA V19.S4, V6.S4, V8.S4
	VMOV  V18.B16, V9.B16
	VFMLA V19.S4, V7.S4, V9.S4
	VMOV  V17.B16, V10.B16
	VFMLA V8.S4, V6.S4, V10.S4
	VMOV  V17.B16, V11.B16
	VFMLA V9.S4, V7.S4, V11.S4
	VMOV  V16.B16, V8.B16
	VFMLA V10.S4, V6.S4, V8.S4
	VMOV  V16.B16, V9.B16
	VFMLA V11.S4, V7.S4, V9.S4
	VMOV  V15.B16, V10.B16
	VFMLA V8.S4, V6.S4, V10.S4
	VMOV  V15.B16, V11.B16
	VFMLA V9.S4, V7.S4, V11.S4
	WORD $0x6e26dd48 // fmul v8.4s, v10.4s, v6.4s
	WORD $0x6e27dd69 // fmul v9.4s, v11.4s, v7.4s
	WORD $0x6eaee44c // fcmgt v12.4s, v2.4s, v14.4s
	WORD $0x6eaee46d // fcmgt v13.4s, v3.4s, v14.4s
	VFMLA V8.S4, V2.S4, V2.S4 // a + a·(s·T)
	VFMLA V9.S4, V3.S4, V3.S4
	VBSL  V2.B16, V4.B16, V12.B16 // t = a > 0.625 ? big : small (NaN: small, NaN)
	VBSL  V3.B16, V5.B16, V13.B16
	// t ≥ 0 or NaN: its sign bit becomes that of x (tanh(−0) = −0).
	VUSHR $31, V0.S4, V0.S4
	VUSHR $31, V1.S4, V1.S4
	VSLI  $31, V0.S4, V12.S4
	VSLI  $31, V1.S4, V13.S4

	CMP   $8, R2
	BLT   tstore4
	VST1.P [V12.S4, V13.S4], 32(R0)
	SUB   $8, R2
	B     tloop

tstore4:
	CMP   $4, R2
	BLT   tstore1
	VST1.P [V12.S4], 16(R0)
	SUB   $4, R2
	B     tloop

tstore1:
	FMOVS.P F12, 4(R0)
	SUB   $1, R2
	B     tloop

tdone:
	RET

// func expNEON(dst, src []float32)
TEXT ·expNEON(SB), NOSPLIT, $0-48
	MOVW  $0x3f800000, R3 // 1
	VDUP  R3, V31.S4
	MOVW  $0x3fb8aa3b, R3 // log2(e)
	VDUP  R3, V30.S4
	MOVW  $0x3f318000, R3 // ln2 high part (exact in 9 bits, so k·hi is exact)
	VDUP  R3, V29.S4
	MOVW  $0xb95e8083, R3 // ln2 low part
	VDUP  R3, V28.S4
	MOVW  $0x39506967, R3 // exp polynomial (Cephes expf) P0
	VDUP  R3, V27.S4
	MOVW  $0x3ab743ce, R3 // P1
	VDUP  R3, V26.S4
	MOVW  $0x3c088908, R3 // P2
	VDUP  R3, V25.S4
	MOVW  $0x3d2aa9c1, R3 // P3
	VDUP  R3, V24.S4
	MOVW  $0x3e2aaaaa, R3 // P4
	VDUP  R3, V23.S4
	MOVW  $0x3f000000, R3 // P5
	VDUP  R3, V22.S4
	MOVW  $0x42b20000, R3 // 89: exp(89) overflows, k ≤ 128
	VDUP  R3, V21.S4
	MOVW  $0xc2d00000, R3 // −104: exp(−104) rounds to 0, k ≥ −150
	VDUP  R3, V20.S4

	MOVD  dst_base+0(FP), R0
	MOVD  dst_len+8(FP), R2
	MOVD  src_base+24(FP), R1

eloop:
	CMP   $8, R2
	BLT   efour
	VLD1.P 32(R1), [V0.S4, V1.S4]
	B     ecompute

efour:
	CMP   $4, R2
	BLT   eone
	VLD1.P 16(R1), [V0.S4]
	B     ecompute

eone:
	CBZ   R2, edone
	FMOVS.P 4(R1), F0

ecompute:
	// V0, V1 = x → r; V2, V3 = k; V4..V7 the polynomial.
	WORD $0x4e34f400 // fmax v0.4s, v0.4s, v20.4s
	WORD $0x4e34f421 // fmax v1.4s, v1.4s, v20.4s
	WORD $0x4eb5f400 // fmin v0.4s, v0.4s, v21.4s
	WORD $0x4eb5f421 // fmin v1.4s, v1.4s, v21.4s
	WORD $0x6e3edc02 // fmul v2.4s, v0.4s, v30.4s
	WORD $0x6e3edc23 // fmul v3.4s, v1.4s, v30.4s
	WORD $0x4e218842 // frintn v2.4s, v2.4s
	WORD $0x4e218863 // frintn v3.4s, v3.4s
	VFMLS V29.S4, V2.S4, V0.S4 // r = x − k·ln2hi
	VFMLS V29.S4, V3.S4, V1.S4
	VFMLS V28.S4, V2.S4, V0.S4 // r −= k·ln2lo
	VFMLS V28.S4, V3.S4, V1.S4
	WORD $0x4ea1b842 // fcvtzs v2.4s, v2.4s
	WORD $0x4ea1b863 // fcvtzs v3.4s, v3.4s
	VMOV  V26.B16, V4.B16
	VFMLA V27.S4, V0.S4, V4.S4
	VMOV  V26.B16, V5.B16
	VFMLA V27.S4, V1.S4, V5.S4
	VMOV  V25.B16, V6.B16
	VFMLA V4.S4, V0.S4, V6.S4
	VMOV  V25.B16, V7.B16
	VFMLA V5.S4, V1.S4, V7.S4
	VMOV  V24.B16, V4.B16
	VFMLA V6.S4, V0.S4, V4.S4
	VMOV  V24.B16, V5.B16
	VFMLA V7.S4, V1.S4, V5.S4
	VMOV  V23.B16, V6.B16
	VFMLA V4.S4, V0.S4, V6.S4
	VMOV  V23.B16, V7.B16
	VFMLA V5.S4, V1.S4, V7.S4
	VMOV  V22.B16, V4.B16
	VFMLA V6.S4, V0.S4, V4.S4
	VMOV  V22.B16, V5.B16
	VFMLA V7.S4, V1.S4, V5.S4
	WORD $0x6e20dc06 // fmul v6.4s, v0.4s, v0.4s
	WORD $0x6e21dc27 // fmul v7.4s, v1.4s, v1.4s
	VFMLA V4.S4, V6.S4, V0.S4 // r + y·r²
	VFMLA V5.S4, V7.S4, V1.S4
	WORD $0x4e3fd400 // fadd v0.4s, v0.4s, v31.4s
	WORD $0x4e3fd421 // fadd v1.4s, v1.4s, v31.4s
	// ·2^k as ·2^(k>>1)·2^(k−k>>1): both factors normal for −150 ≤ k ≤ 128;
	// the first product is exact, the second rounds once (to a subnormal,
	// 0 or +Inf where the result is one).
	WORD $0x4f3f0444 // sshr v4.4s, v2.4s, #1
	WORD $0x4f3f0465 // sshr v5.4s, v3.4s, #1
	VSUB  V4.S4, V2.S4, V2.S4
	VSUB  V5.S4, V3.S4, V3.S4
	VSHL  $23, V4.S4, V4.S4
	VSHL  $23, V5.S4, V5.S4
	VSHL  $23, V2.S4, V2.S4
	VSHL  $23, V3.S4, V3.S4
	VADD  V31.S4, V4.S4, V4.S4 // + bits of 1.0: 2^(k>>1)
	VADD  V31.S4, V5.S4, V5.S4
	VADD  V31.S4, V2.S4, V2.S4
	VADD  V31.S4, V3.S4, V3.S4
	WORD $0x6e24dc00 // fmul v0.4s, v0.4s, v4.4s
	WORD $0x6e25dc21 // fmul v1.4s, v1.4s, v5.4s
	WORD $0x6e22dc00 // fmul v0.4s, v0.4s, v2.4s
	WORD $0x6e23dc21 // fmul v1.4s, v1.4s, v3.4s

	CMP   $8, R2
	BLT   estore4
	VST1.P [V0.S4, V1.S4], 32(R0)
	SUB   $8, R2
	B     eloop

estore4:
	CMP   $4, R2
	BLT   estore1
	VST1.P [V0.S4], 16(R0)
	SUB   $4, R2
	B     eloop

estore1:
	FMOVS.P F0, 4(R0)
	SUB   $1, R2
	B     eloop

edone:
	RET

// func addNEON(dst, src []float32)
//
// dst += src sixteen elements a step, then four, then one: the same
// roundings as the generic twin (one FADD each), so the two agree to the bit.
TEXT ·addNEON(SB), NOSPLIT, $0-48
	MOVD  dst_base+0(FP), R0
	MOVD  dst_len+8(FP), R2
	MOVD  src_base+24(FP), R1

aloop16:
	CMP   $16, R2
	BLT   aloop4
	VLD1  (R0), [V0.S4, V1.S4, V2.S4, V3.S4]
	VLD1.P 64(R1), [V4.S4, V5.S4, V6.S4, V7.S4]
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	WORD $0x4e25d421 // fadd v1.4s, v1.4s, v5.4s
	WORD $0x4e26d442 // fadd v2.4s, v2.4s, v6.4s
	WORD $0x4e27d463 // fadd v3.4s, v3.4s, v7.4s
	VST1.P [V0.S4, V1.S4, V2.S4, V3.S4], 64(R0)
	SUB   $16, R2
	B     aloop16

aloop4:
	CMP   $4, R2
	BLT   aloop1
	VLD1  (R0), [V0.S4]
	VLD1.P 16(R1), [V4.S4]
	WORD $0x4e24d400 // fadd v0.4s, v0.4s, v4.4s
	VST1.P [V0.S4], 16(R0)
	SUB   $4, R2
	B     aloop4

aloop1:
	CBZ   R2, adone
	FMOVS (R0), F0
	FMOVS.P 4(R1), F4
	FADDS F4, F0
	FMOVS.P F0, 4(R0)
	SUB   $1, R2
	B     aloop1

adone:
	RET

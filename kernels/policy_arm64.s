//go:build !purego

#include "textflag.h"

// NEON policy head (see policy.go and the generic twins in
// policy_generic.go, whose order of passes and operations this follows), one
// row at a time, four columns at a time; the last cols%4 columns go one lane
// at a time through the same code, accumulating into scalar registers.
// exp is as in gru_arm64.s (arguments here are all ≤ 0); log is Cephes'
// logf (m in [√½, √2), degree-9 polynomial, about 1 ulp), NaN passing
// through. Constants sit four to a register (V25–V31) and are broadcast with
// DUP where used. Vector FADD/FMUL/FDIV/FMAX/…: WORDs with the mnemonic
// alongside (checked by TestNEONWords).

// Float constants, four per vector register, loaded into V26–V31: V26: logf L8; sqrt(1/2); entropy eps; V27: logf L4..L7; V28: logf L0..L3; V29: expf P4, P5; exp clamp; 1/2; V30: expf P0..P3; V31: 1, log2(e), ln2 high, ln2 low.
DATA  ·policyConstsNEON+0(SB)/4, $0x3eaaaaaa
DATA  ·policyConstsNEON+4(SB)/4, $0x3f3504f3
DATA  ·policyConstsNEON+8(SB)/4, $0x3089705f
DATA  ·policyConstsNEON+12(SB)/4, $0x00000000
DATA  ·policyConstsNEON+16(SB)/4, $0x3e11e9bf
DATA  ·policyConstsNEON+20(SB)/4, $0xbe2aae50
DATA  ·policyConstsNEON+24(SB)/4, $0x3e4cceac
DATA  ·policyConstsNEON+28(SB)/4, $0xbe7ffffc
DATA  ·policyConstsNEON+32(SB)/4, $0x3d9021bb
DATA  ·policyConstsNEON+36(SB)/4, $0xbdebd1b8
DATA  ·policyConstsNEON+40(SB)/4, $0x3def251a
DATA  ·policyConstsNEON+44(SB)/4, $0xbdfe5d4f
DATA  ·policyConstsNEON+48(SB)/4, $0x3e2aaaaa
DATA  ·policyConstsNEON+52(SB)/4, $0x3f000000
DATA  ·policyConstsNEON+56(SB)/4, $0xc2d00000
DATA  ·policyConstsNEON+60(SB)/4, $0x3f000000
DATA  ·policyConstsNEON+64(SB)/4, $0x39506967
DATA  ·policyConstsNEON+68(SB)/4, $0x3ab743ce
DATA  ·policyConstsNEON+72(SB)/4, $0x3c088908
DATA  ·policyConstsNEON+76(SB)/4, $0x3d2aa9c1
DATA  ·policyConstsNEON+80(SB)/4, $0x3f800000
DATA  ·policyConstsNEON+84(SB)/4, $0x3fb8aa3b
DATA  ·policyConstsNEON+88(SB)/4, $0x3f318000
DATA  ·policyConstsNEON+92(SB)/4, $0xb95e8083
GLOBL ·policyConstsNEON(SB), RODATA|NOPTR, $96

// Integer constants: mantissa and sign mask; exponent of 1/2; bias-1.
DATA  ·policyIntsNEON+0(SB)/4, $0x807fffff
DATA  ·policyIntsNEON+4(SB)/4, $0x3f000000
DATA  ·policyIntsNEON+8(SB)/4, $0x0000007e
DATA  ·policyIntsNEON+12(SB)/4, $0x00000000
GLOBL ·policyIntsNEON(SB), RODATA|NOPTR, $16

// func policyForwardNEON(rows, cols int, logits []float32, ld int, logp, ent []float32)
//
// Per row: mx = max x; lse = mx + log Σ exp(x − mx); logp = x − lse;
// ent = −Σ p·log(p + ε), p = exp(logp).
// Registers: V16/F15 max, V18/F14 sum, V20/F13 entropy (vector/scalar
// accumulators); V17 mx, V19 lse broadcast.
TEXT ·policyForwardNEON(SB), NOSPLIT, $0-96
	MOVD  $·policyConstsNEON(SB), R0
	VLD1.P 64(R0), [V26.S4, V27.S4, V28.S4, V29.S4]
	VLD1  (R0), [V30.S4, V31.S4]
	MOVD  $·policyIntsNEON(SB), R0
	VLD1  (R0), [V25.S4]
	VDUP  V31.S[0], V22.S4 // 1
	VDUP  V26.S[2], V21.S4 // eps
	MOVD  rows+0(FP), R9
	MOVD  cols+8(FP), R10
	MOVD  logits_base+16(FP), R1
	MOVD  ld+40(FP), R11
	LSL   $2, R11
	MOVD  logp_base+48(FP), R2
	MOVD  ent_base+72(FP), R3
	MOVW  $0xff800000, R0 // −Inf
	VDUP  R0, V23.S4

frow:
	CBZ   R9, fdone
	// pass 1: the maximum
	VMOV  V23.B16, V16.B16
	VMOV  V23.B16, V15.B16
	MOVD  R1, R5
	MOVD  R10, R4
fmax:
	CMP   $4, R4
	BLT   fmaxone
	VLD1.P 16(R5), [V0.S4]
	WORD $0x4e20f610 // fmax v16.4s, v16.4s, v0.4s
	SUB   $4, R4
	B     fmax
fmaxone:
	CBZ   R4, fmaxend
	FMOVS.P 4(R5), F0
	FMAXS F0, F15, F15
	SUB   $1, R4
	B     fmaxone
fmaxend:
	WORD $0x6e30fa10 // fmaxv s16, v16.4s
	FMAXS F16, F15, F15
	VDUP  V15.S[0], V17.S4

	// pass 2: Σ exp(x − mx)
	VEOR  V18.B16, V18.B16, V18.B16
	VEOR  V14.B16, V14.B16, V14.B16
	MOVD  R1, R5
	MOVD  R10, R4
fsum:
	CMP   $4, R4
	BLT   fsumone
	VLD1.P 16(R5), [V0.S4]
	B     fsumbody
fsumone:
	CBZ   R4, fsumend
	FMOVS.P 4(R5), F0
fsumbody:
	WORD $0x4eb1d400 // fsub v0.4s, v0.4s, v17.4s
	// V0 = exp(V0)
	VDUP  V29.S[2], V3.S4
	WORD $0x4e23f400 // fmax v0.4s, v0.4s, v3.4s
	VDUP  V31.S[1], V3.S4
	WORD $0x6e23dc01 // fmul v1.4s, v0.4s, v3.4s
	WORD $0x4e218821 // frintn v1.4s, v1.4s
	VDUP  V31.S[2], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	VDUP  V31.S[3], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	WORD $0x4ea1b821 // fcvtzs v1.4s, v1.4s
	VDUP  V30.S[0], V2.S4
	VDUP  V30.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V30.S[2], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V30.S[3], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V29.S[0], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V29.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	WORD $0x6e20dc02 // fmul v2.4s, v0.4s, v0.4s
	VFMLA V3.S4, V2.S4, V0.S4
	WORD $0x4e36d400 // fadd v0.4s, v0.4s, v22.4s
	WORD $0x4f3f0422 // sshr v2.4s, v1.4s, #1
	VSUB  V2.S4, V1.S4, V1.S4
	VSHL  $23, V2.S4, V2.S4
	VSHL  $23, V1.S4, V1.S4
	VADD  V22.S4, V2.S4, V2.S4
	VADD  V22.S4, V1.S4, V1.S4
	WORD $0x6e22dc00 // fmul v0.4s, v0.4s, v2.4s
	WORD $0x6e21dc00 // fmul v0.4s, v0.4s, v1.4s
	CMP   $4, R4
	BLT   fsumstore1
	WORD $0x4e20d652 // fadd v18.4s, v18.4s, v0.4s
	SUB   $4, R4
	B     fsum
fsumstore1:
	FADDS F0, F14, F14
	SUB   $1, R4
	B     fsum
fsumend:
	WORD $0x6e32d652 // faddp v18.4s, v18.4s, v18.4s
	WORD $0x7e30da52 // faddp s18, v18.2s
	FADDS F18, F14, F14
	// lse = mx + log(sum)
	VDUP  V14.S[0], V19.S4
	// V19 = log(V19)
	WORD $0x4eb3d665 // fsub v5.4s, v19.4s, v19.4s
	VDUP  V25.S[0], V3.S4
	VAND  V3.B16, V19.B16, V2.B16
	VDUP  V25.S[1], V3.S4
	VORR  V3.B16, V2.B16, V2.B16 // m in [1/2, 1)
	VUSHR $23, V19.S4, V1.S4
	VDUP  V25.S[2], V3.S4
	VSUB  V3.S4, V1.S4, V1.S4
	VDUP  V26.S[1], V3.S4
	WORD $0x6ea2e463 // fcmgt v3.4s, v3.4s, v2.4s
	VADD  V3.S4, V1.S4, V1.S4 // m < sqrt(1/2): e−1 and m := 2m
	VAND  V3.B16, V2.B16, V3.B16
	WORD $0x4eb6d442 // fsub v2.4s, v2.4s, v22.4s
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x6e22dc44 // fmul v4.4s, v2.4s, v2.4s
	VDUP  V28.S[0], V3.S4
	VDUP  V28.S[1], V19.S4
	VFMLA V3.S4, V2.S4, V19.S4
	VDUP  V28.S[2], V3.S4
	VFMLA V19.S4, V2.S4, V3.S4
	VDUP  V28.S[3], V19.S4
	VFMLA V3.S4, V2.S4, V19.S4
	VDUP  V27.S[0], V3.S4
	VFMLA V19.S4, V2.S4, V3.S4
	VDUP  V27.S[1], V19.S4
	VFMLA V3.S4, V2.S4, V19.S4
	VDUP  V27.S[2], V3.S4
	VFMLA V19.S4, V2.S4, V3.S4
	VDUP  V27.S[3], V19.S4
	VFMLA V3.S4, V2.S4, V19.S4
	VDUP  V26.S[0], V3.S4
	VFMLA V19.S4, V2.S4, V3.S4
	WORD $0x6e22dc63 // fmul v3.4s, v3.4s, v2.4s
	WORD $0x6e24dc63 // fmul v3.4s, v3.4s, v4.4s
	VDUP  V31.S[3], V19.S4
	VFMLA V19.S4, V1.S4, V3.S4
	VDUP  V29.S[3], V19.S4
	VFMLS V19.S4, V4.S4, V3.S4
	WORD $0x4e23d453 // fadd v19.4s, v2.4s, v3.4s
	VDUP  V31.S[2], V3.S4
	VFMLA V3.S4, V1.S4, V19.S4
	WORD $0x4e25d673 // fadd v19.4s, v19.4s, v5.4s
	WORD $0x4e31d673 // fadd v19.4s, v19.4s, v17.4s

	// pass 3: logp = x − lse, entropy
	VEOR  V20.B16, V20.B16, V20.B16
	VEOR  V13.B16, V13.B16, V13.B16
	MOVD  R1, R5
	MOVD  R10, R4
fent:
	CMP   $4, R4
	BLT   fentone
	VLD1.P 16(R5), [V0.S4]
	B     fentbody
fentone:
	CBZ   R4, fentend
	FMOVS.P 4(R5), F0
fentbody:
	WORD $0x4eb3d400 // fsub v0.4s, v0.4s, v19.4s
	VMOV  V0.B16, V6.B16 // logp, stored below
	// V0 = exp(V0)
	VDUP  V29.S[2], V3.S4
	WORD $0x4e23f400 // fmax v0.4s, v0.4s, v3.4s
	VDUP  V31.S[1], V3.S4
	WORD $0x6e23dc01 // fmul v1.4s, v0.4s, v3.4s
	WORD $0x4e218821 // frintn v1.4s, v1.4s
	VDUP  V31.S[2], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	VDUP  V31.S[3], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	WORD $0x4ea1b821 // fcvtzs v1.4s, v1.4s
	VDUP  V30.S[0], V2.S4
	VDUP  V30.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V30.S[2], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V30.S[3], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V29.S[0], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V29.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	WORD $0x6e20dc02 // fmul v2.4s, v0.4s, v0.4s
	VFMLA V3.S4, V2.S4, V0.S4
	WORD $0x4e36d400 // fadd v0.4s, v0.4s, v22.4s
	WORD $0x4f3f0422 // sshr v2.4s, v1.4s, #1
	VSUB  V2.S4, V1.S4, V1.S4
	VSHL  $23, V2.S4, V2.S4
	VSHL  $23, V1.S4, V1.S4
	VADD  V22.S4, V2.S4, V2.S4
	VADD  V22.S4, V1.S4, V1.S4
	WORD $0x6e22dc00 // fmul v0.4s, v0.4s, v2.4s
	WORD $0x6e21dc00 // fmul v0.4s, v0.4s, v1.4s
	WORD $0x4e35d407 // fadd v7.4s, v0.4s, v21.4s
	// V7 = log(V7)
	WORD $0x4ea7d4e5 // fsub v5.4s, v7.4s, v7.4s
	VDUP  V25.S[0], V3.S4
	VAND  V3.B16, V7.B16, V2.B16
	VDUP  V25.S[1], V3.S4
	VORR  V3.B16, V2.B16, V2.B16 // m in [1/2, 1)
	VUSHR $23, V7.S4, V1.S4
	VDUP  V25.S[2], V3.S4
	VSUB  V3.S4, V1.S4, V1.S4
	VDUP  V26.S[1], V3.S4
	WORD $0x6ea2e463 // fcmgt v3.4s, v3.4s, v2.4s
	VADD  V3.S4, V1.S4, V1.S4 // m < sqrt(1/2): e−1 and m := 2m
	VAND  V3.B16, V2.B16, V3.B16
	WORD $0x4eb6d442 // fsub v2.4s, v2.4s, v22.4s
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x6e22dc44 // fmul v4.4s, v2.4s, v2.4s
	VDUP  V28.S[0], V3.S4
	VDUP  V28.S[1], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V28.S[2], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	VDUP  V28.S[3], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V27.S[0], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	VDUP  V27.S[1], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V27.S[2], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	VDUP  V27.S[3], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V26.S[0], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	WORD $0x6e22dc63 // fmul v3.4s, v3.4s, v2.4s
	WORD $0x6e24dc63 // fmul v3.4s, v3.4s, v4.4s
	VDUP  V31.S[3], V7.S4
	VFMLA V7.S4, V1.S4, V3.S4
	VDUP  V29.S[3], V7.S4
	VFMLS V7.S4, V4.S4, V3.S4
	WORD $0x4e23d447 // fadd v7.4s, v2.4s, v3.4s
	VDUP  V31.S[2], V3.S4
	VFMLA V3.S4, V1.S4, V7.S4
	WORD $0x4e25d4e7 // fadd v7.4s, v7.4s, v5.4s
	CMP   $4, R4
	BLT   fentstore1
	VST1.P [V6.S4], 16(R2)
	VFMLS V7.S4, V0.S4, V20.S4 // e −= p·log(p+ε)
	SUB   $4, R4
	B     fent
fentstore1:
	FMOVS.P F6, 4(R2)
	FMSUBS F7, F13, F0, F13
	SUB   $1, R4
	B     fent
fentend:
	WORD $0x6e34d694 // faddp v20.4s, v20.4s, v20.4s
	WORD $0x7e30da94 // faddp s20, v20.2s
	FADDS F20, F13, F13
	FMOVS.P F13, 4(R3)
	ADD   R11, R1
	SUB   $1, R9
	B     frow

fdone:
	RET

// func policyBackwardNEON(rows, cols int, logp []float32, actions []int32, dlogp, dent, dlogits []float32, ld int)
//
// Per row, with p = exp(logp) and g = −(log(p+ε) + p/(p+ε)): pass 1 writes g
// into dlogits and sums pg = Σ p·g; pass 2 overwrites it with
// dent·p·(g − pg) − dlogp·p; then dlogits[action] += dlogp.
// Registers: V18/F14 pg accumulators, V19 pg, V20 dent, V23 dlogp broadcast.
TEXT ·policyBackwardNEON(SB), NOSPLIT, $0-144
	MOVD  $·policyConstsNEON(SB), R0
	VLD1.P 64(R0), [V26.S4, V27.S4, V28.S4, V29.S4]
	VLD1  (R0), [V30.S4, V31.S4]
	MOVD  $·policyIntsNEON(SB), R0
	VLD1  (R0), [V25.S4]
	VDUP  V31.S[0], V22.S4 // 1
	VDUP  V26.S[2], V21.S4 // eps
	MOVD  rows+0(FP), R9
	MOVD  cols+8(FP), R10
	MOVD  logp_base+16(FP), R1
	MOVD  actions_base+40(FP), R3
	MOVD  dlogp_base+64(FP), R6
	MOVD  dent_base+88(FP), R7
	MOVD  dlogits_base+112(FP), R2
	MOVD  ld+136(FP), R11
	LSL   $2, R11

brow:
	CBZ   R9, bdone
	// pass 1: g and Σ p·g
	VEOR  V18.B16, V18.B16, V18.B16
	VEOR  V14.B16, V14.B16, V14.B16
	MOVD  R1, R5
	MOVD  R2, R8
	MOVD  R10, R4
bgx:
	CMP   $4, R4
	BLT   bgxone
	VLD1.P 16(R5), [V0.S4]
	B     bgxbody
bgxone:
	CBZ   R4, bgxend
	FMOVS.P 4(R5), F0
bgxbody:
	// V0 = exp(V0)
	VDUP  V29.S[2], V3.S4
	WORD $0x4e23f400 // fmax v0.4s, v0.4s, v3.4s
	VDUP  V31.S[1], V3.S4
	WORD $0x6e23dc01 // fmul v1.4s, v0.4s, v3.4s
	WORD $0x4e218821 // frintn v1.4s, v1.4s
	VDUP  V31.S[2], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	VDUP  V31.S[3], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	WORD $0x4ea1b821 // fcvtzs v1.4s, v1.4s
	VDUP  V30.S[0], V2.S4
	VDUP  V30.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V30.S[2], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V30.S[3], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V29.S[0], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V29.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	WORD $0x6e20dc02 // fmul v2.4s, v0.4s, v0.4s
	VFMLA V3.S4, V2.S4, V0.S4
	WORD $0x4e36d400 // fadd v0.4s, v0.4s, v22.4s
	WORD $0x4f3f0422 // sshr v2.4s, v1.4s, #1
	VSUB  V2.S4, V1.S4, V1.S4
	VSHL  $23, V2.S4, V2.S4
	VSHL  $23, V1.S4, V1.S4
	VADD  V22.S4, V2.S4, V2.S4
	VADD  V22.S4, V1.S4, V1.S4
	WORD $0x6e22dc00 // fmul v0.4s, v0.4s, v2.4s
	WORD $0x6e21dc00 // fmul v0.4s, v0.4s, v1.4s
	WORD $0x4e35d407 // fadd v7.4s, v0.4s, v21.4s
	WORD $0x6e27fc08 // fdiv v8.4s, v0.4s, v7.4s
	// V7 = log(V7)
	WORD $0x4ea7d4e5 // fsub v5.4s, v7.4s, v7.4s
	VDUP  V25.S[0], V3.S4
	VAND  V3.B16, V7.B16, V2.B16
	VDUP  V25.S[1], V3.S4
	VORR  V3.B16, V2.B16, V2.B16 // m in [1/2, 1)
	VUSHR $23, V7.S4, V1.S4
	VDUP  V25.S[2], V3.S4
	VSUB  V3.S4, V1.S4, V1.S4
	VDUP  V26.S[1], V3.S4
	WORD $0x6ea2e463 // fcmgt v3.4s, v3.4s, v2.4s
	VADD  V3.S4, V1.S4, V1.S4 // m < sqrt(1/2): e−1 and m := 2m
	VAND  V3.B16, V2.B16, V3.B16
	WORD $0x4eb6d442 // fsub v2.4s, v2.4s, v22.4s
	WORD $0x4e23d442 // fadd v2.4s, v2.4s, v3.4s
	WORD $0x4e21d821 // scvtf v1.4s, v1.4s
	WORD $0x6e22dc44 // fmul v4.4s, v2.4s, v2.4s
	VDUP  V28.S[0], V3.S4
	VDUP  V28.S[1], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V28.S[2], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	VDUP  V28.S[3], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V27.S[0], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	VDUP  V27.S[1], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V27.S[2], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	VDUP  V27.S[3], V7.S4
	VFMLA V3.S4, V2.S4, V7.S4
	VDUP  V26.S[0], V3.S4
	VFMLA V7.S4, V2.S4, V3.S4
	WORD $0x6e22dc63 // fmul v3.4s, v3.4s, v2.4s
	WORD $0x6e24dc63 // fmul v3.4s, v3.4s, v4.4s
	VDUP  V31.S[3], V7.S4
	VFMLA V7.S4, V1.S4, V3.S4
	VDUP  V29.S[3], V7.S4
	VFMLS V7.S4, V4.S4, V3.S4
	WORD $0x4e23d447 // fadd v7.4s, v2.4s, v3.4s
	VDUP  V31.S[2], V3.S4
	VFMLA V3.S4, V1.S4, V7.S4
	WORD $0x4e25d4e7 // fadd v7.4s, v7.4s, v5.4s
	WORD $0x4e28d4e7 // fadd v7.4s, v7.4s, v8.4s
	WORD $0x6ea0f8e7 // fneg v7.4s, v7.4s
	CMP   $4, R4
	BLT   bgxstore1
	VST1.P [V7.S4], 16(R8)
	VFMLA V7.S4, V0.S4, V18.S4 // pg += p·g
	SUB   $4, R4
	B     bgx
bgxstore1:
	FMOVS.P F7, 4(R8)
	FMADDS F7, F14, F0, F14
	SUB   $1, R4
	B     bgx
bgxend:
	WORD $0x6e32d652 // faddp v18.4s, v18.4s, v18.4s
	WORD $0x7e30da52 // faddp s18, v18.2s
	FADDS F18, F14, F14
	VDUP  V14.S[0], V19.S4
	FMOVS.P 4(R6), F23 // dlogp[r]
	FMOVS.P 4(R7), F20 // dent[r]
	VDUP  V23.S[0], V23.S4
	VDUP  V20.S[0], V20.S4

	// pass 2: dlogits = dent·p·(g − pg) − dlogp·p
	MOVD  R1, R5
	MOVD  R2, R8
	MOVD  R10, R4
bdx:
	CMP   $4, R4
	BLT   bdxone
	VLD1.P 16(R5), [V0.S4]
	VLD1  (R8), [V6.S4]
	B     bdxbody
bdxone:
	CBZ   R4, bdxend
	FMOVS.P 4(R5), F0
	FMOVS (R8), F6
bdxbody:
	// V0 = exp(V0)
	VDUP  V29.S[2], V3.S4
	WORD $0x4e23f400 // fmax v0.4s, v0.4s, v3.4s
	VDUP  V31.S[1], V3.S4
	WORD $0x6e23dc01 // fmul v1.4s, v0.4s, v3.4s
	WORD $0x4e218821 // frintn v1.4s, v1.4s
	VDUP  V31.S[2], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	VDUP  V31.S[3], V3.S4
	VFMLS V3.S4, V1.S4, V0.S4
	WORD $0x4ea1b821 // fcvtzs v1.4s, v1.4s
	VDUP  V30.S[0], V2.S4
	VDUP  V30.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V30.S[2], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V30.S[3], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	VDUP  V29.S[0], V2.S4
	VFMLA V3.S4, V0.S4, V2.S4
	VDUP  V29.S[1], V3.S4
	VFMLA V2.S4, V0.S4, V3.S4
	WORD $0x6e20dc02 // fmul v2.4s, v0.4s, v0.4s
	VFMLA V3.S4, V2.S4, V0.S4
	WORD $0x4e36d400 // fadd v0.4s, v0.4s, v22.4s
	WORD $0x4f3f0422 // sshr v2.4s, v1.4s, #1
	VSUB  V2.S4, V1.S4, V1.S4
	VSHL  $23, V2.S4, V2.S4
	VSHL  $23, V1.S4, V1.S4
	VADD  V22.S4, V2.S4, V2.S4
	VADD  V22.S4, V1.S4, V1.S4
	WORD $0x6e22dc00 // fmul v0.4s, v0.4s, v2.4s
	WORD $0x6e21dc00 // fmul v0.4s, v0.4s, v1.4s
	WORD $0x6e20de82 // fmul v2.4s, v20.4s, v0.4s
	WORD $0x4eb3d4c6 // fsub v6.4s, v6.4s, v19.4s
	WORD $0x6e26dc42 // fmul v2.4s, v2.4s, v6.4s
	VFMLS V23.S4, V0.S4, V2.S4 // − dlogp·p
	CMP   $4, R4
	BLT   bdxstore1
	VST1.P [V2.S4], 16(R8)
	SUB   $4, R4
	B     bdx
bdxstore1:
	FMOVS.P F2, 4(R8)
	SUB   $1, R4
	B     bdx
bdxend:
	// dlogits[action] += dlogp
	MOVW.P 4(R3), R0
	ADD   R0<<2, R2, R0
	FMOVS (R0), F0
	FADDS F23, F0, F0
	FMOVS F0, (R0)
	ADD   R11, R2
	MOVD  R5, R1 // logp rows are packed: the next starts where this ended
	SUB   $1, R9
	B     brow

bdone:
	RET

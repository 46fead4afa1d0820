//go:build !purego

#include "textflag.h"

// NEON Adam and Σx². Vector FMUL/FADD/FSUB/FDIV/FSQRT and FCVTL are not in
// the Go assembler: WORDs with the mnemonic alongside (TestNEONWords).

// func adamNEON(p, g, m, v []float32, gradScale, beta1, beta2, eps, stepSize, bc2Sqrt float32)
//
// With the roundings of adamGeneric as the Go compiler builds it for arm64
// (β1·m and β2·v fused into FMADD), so the two agree to the bit; four
// elements at a time, the last len(p)%4 one lane at a time through the same
// code.
TEXT ·adamNEON(SB), NOSPLIT, $0-120
	MOVD  p_base+0(FP), R0
	MOVD  p_len+8(FP), R4
	MOVD  g_base+24(FP), R1
	MOVD  m_base+48(FP), R2
	MOVD  v_base+72(FP), R3
	FMOVS gradScale+96(FP), F20
	FMOVS beta1+100(FP), F21
	FMOVS beta2+104(FP), F23
	FMOVS eps+108(FP), F25
	FMOVS stepSize+112(FP), F26
	FMOVS bc2Sqrt+116(FP), F27
	FMOVS $1.0, F0
	FSUBS F21, F0, F22 // 1 − β1
	FSUBS F23, F0, F24 // 1 − β2
	VDUP  V20.S[0], V20.S4
	VDUP  V21.S[0], V21.S4
	VDUP  V22.S[0], V22.S4
	VDUP  V23.S[0], V23.S4
	VDUP  V24.S[0], V24.S4
	VDUP  V25.S[0], V25.S4
	VDUP  V26.S[0], V26.S4
	VDUP  V27.S[0], V27.S4

aloop:
	CMP   $4, R4
	BLT   aone
	VLD1  (R0), [V0.S4]
	VLD1.P 16(R1), [V1.S4]
	VLD1  (R2), [V2.S4]
	VLD1  (R3), [V3.S4]
	B     acompute

aone:
	CBZ   R4, adone
	FMOVS (R0), F0
	FMOVS.P 4(R1), F1
	FMOVS (R2), F2
	FMOVS (R3), F3

acompute:
	WORD $0x6e34dc21 // fmul v1.4s, v1.4s, v20.4s
	WORD $0x6e36dc24 // fmul v4.4s, v1.4s, v22.4s
	VFMLA V21.S4, V2.S4, V4.S4 // m = β1·m + that, fused
	WORD $0x6e38dc25 // fmul v5.4s, v1.4s, v24.4s
	WORD $0x6e21dca5 // fmul v5.4s, v5.4s, v1.4s
	VFMLA V23.S4, V3.S4, V5.S4 // v = β2·v + that, fused
	VMOV  V4.B16, V2.B16
	VMOV  V5.B16, V3.B16
	WORD $0x6ea1f865 // fsqrt v5.4s, v3.4s
	WORD $0x6e3bfca5 // fdiv v5.4s, v5.4s, v27.4s
	WORD $0x4e39d4a5 // fadd v5.4s, v5.4s, v25.4s
	WORD $0x6e22df46 // fmul v6.4s, v26.4s, v2.4s
	WORD $0x6e25fcc6 // fdiv v6.4s, v6.4s, v5.4s
	WORD $0x4ea6d400 // fsub v0.4s, v0.4s, v6.4s
	CMP   $4, R4
	BLT   astore1
	VST1.P [V0.S4], 16(R0)
	VST1.P [V2.S4], 16(R2)
	VST1.P [V3.S4], 16(R3)
	SUB   $4, R4
	B     aloop

astore1:
	FMOVS.P F0, 4(R0)
	FMOVS.P F2, 4(R2)
	FMOVS.P F3, 4(R3)
	SUB   $1, R4
	B     aloop

adone:
	RET

// func sumSquaresNEON(x []float32) float64
//
// Each float32 widened to float64 (FCVTL/FCVTL2), squared and summed in four
// 2-lane float64 accumulators, 8 elements a step; the tail in a scalar one.
TEXT ·sumSquaresNEON(SB), NOSPLIT, $0-32
	MOVD  x_base+0(FP), R0
	MOVD  x_len+8(FP), R1
	VEOR  V0.B16, V0.B16, V0.B16
	VEOR  V1.B16, V1.B16, V1.B16
	VEOR  V2.B16, V2.B16, V2.B16
	VEOR  V3.B16, V3.B16, V3.B16
	VEOR  V8.B16, V8.B16, V8.B16
	LSR   $3, R1, R2
	AND   $7, R1, R3
	CBZ   R2, stail

sloop:
	VLD1.P 32(R0), [V4.S4, V5.S4]
	WORD $0x0e617886 // fcvtl v6.2d, v4.2s
	WORD $0x4e617887 // fcvtl2 v7.2d, v4.4s
	WORD $0x0e6178b0 // fcvtl v16.2d, v5.2s
	WORD $0x4e6178b1 // fcvtl2 v17.2d, v5.4s
	VFMLA V6.D2, V6.D2, V0.D2
	VFMLA V7.D2, V7.D2, V1.D2
	VFMLA V16.D2, V16.D2, V2.D2
	VFMLA V17.D2, V17.D2, V3.D2
	SUB   $1, R2
	CBNZ  R2, sloop

stail:
	CBZ   R3, sdone

sloop1:
	FMOVS.P 4(R0), F4
	FCVTSD F4, F5
	FMADDD F5, F8, F5, F8 // F8 += F5·F5
	SUB   $1, R3
	CBNZ  R3, sloop1

sdone:
	WORD $0x4e61d400 // fadd v0.2d, v0.2d, v1.2d
	WORD $0x4e63d442 // fadd v2.2d, v2.2d, v3.2d
	WORD $0x4e62d400 // fadd v0.2d, v0.2d, v2.2d
	WORD $0x7e70d800 // faddp d0, v0.2d
	FADDD F8, F0, F0
	FMOVD F0, ret+24(FP)
	RET

//go:build !purego

#include "textflag.h"

// NEON GEMM micro-kernel and packing routines; the blocking, the packing of
// partial panels and the edges are in gemm_arm64.go. The Go assembler has no
// FMLA/FMUL by element, so those are WORDs with the mnemonic alongside
// (checked by TestNEONWords).

// func sgemmKernel8x12(kc int, a, b, c *float32, ldc int, alpha, beta float32)
//
// The 8×12 tile C[0:8, 0:12] (row stride ldc elements) becomes
// alpha·Σ_p a[p·8+i]·b[p·12+j] + beta·C, or alpha·Σ… alone when beta == 0
// (C is then only written). a is an 8-row panel of A and b a 12-column
// panel of B, both packed k-major. kc may be 0.
//
// Registers: V0–V23 accumulate (row i in V3i, V3i+1, V3i+2), V24–V25 hold
// A's 8 values for one p, V26–V28 B's 12.
TEXT ·sgemmKernel8x12(SB), NOSPLIT, $0-48
	MOVD kc+0(FP), R0
	MOVD a+8(FP), R1
	MOVD b+16(FP), R2
	MOVD c+24(FP), R3
	MOVD ldc+32(FP), R4
	LSL  $2, R4
	VEOR V0.B16, V0.B16, V0.B16
	VEOR V1.B16, V1.B16, V1.B16
	VEOR V2.B16, V2.B16, V2.B16
	VEOR V3.B16, V3.B16, V3.B16
	VEOR V4.B16, V4.B16, V4.B16
	VEOR V5.B16, V5.B16, V5.B16
	VEOR V6.B16, V6.B16, V6.B16
	VEOR V7.B16, V7.B16, V7.B16
	VEOR V8.B16, V8.B16, V8.B16
	VEOR V9.B16, V9.B16, V9.B16
	VEOR V10.B16, V10.B16, V10.B16
	VEOR V11.B16, V11.B16, V11.B16
	VEOR V12.B16, V12.B16, V12.B16
	VEOR V13.B16, V13.B16, V13.B16
	VEOR V14.B16, V14.B16, V14.B16
	VEOR V15.B16, V15.B16, V15.B16
	VEOR V16.B16, V16.B16, V16.B16
	VEOR V17.B16, V17.B16, V17.B16
	VEOR V18.B16, V18.B16, V18.B16
	VEOR V19.B16, V19.B16, V19.B16
	VEOR V20.B16, V20.B16, V20.B16
	VEOR V21.B16, V21.B16, V21.B16
	VEOR V22.B16, V22.B16, V22.B16
	VEOR V23.B16, V23.B16, V23.B16
	LSR  $2, R0, R5 // kc/4 unrolled steps
	AND  $3, R0, R6 // then kc%4 single steps
	CBZ  R5, tail

loop4:
	// p+0
	VLD1.P 32(R1), [V24.S4, V25.S4]
	VLD1.P 48(R2), [V26.S4, V27.S4, V28.S4]
	WORD $0x4f981340 // fmla v0.4s, v26.4s, v24.s[0]
	WORD $0x4f981361 // fmla v1.4s, v27.4s, v24.s[0]
	WORD $0x4f981382 // fmla v2.4s, v28.4s, v24.s[0]
	WORD $0x4fb81343 // fmla v3.4s, v26.4s, v24.s[1]
	WORD $0x4fb81364 // fmla v4.4s, v27.4s, v24.s[1]
	WORD $0x4fb81385 // fmla v5.4s, v28.4s, v24.s[1]
	WORD $0x4f981b46 // fmla v6.4s, v26.4s, v24.s[2]
	WORD $0x4f981b67 // fmla v7.4s, v27.4s, v24.s[2]
	WORD $0x4f981b88 // fmla v8.4s, v28.4s, v24.s[2]
	WORD $0x4fb81b49 // fmla v9.4s, v26.4s, v24.s[3]
	WORD $0x4fb81b6a // fmla v10.4s, v27.4s, v24.s[3]
	WORD $0x4fb81b8b // fmla v11.4s, v28.4s, v24.s[3]
	WORD $0x4f99134c // fmla v12.4s, v26.4s, v25.s[0]
	WORD $0x4f99136d // fmla v13.4s, v27.4s, v25.s[0]
	WORD $0x4f99138e // fmla v14.4s, v28.4s, v25.s[0]
	WORD $0x4fb9134f // fmla v15.4s, v26.4s, v25.s[1]
	WORD $0x4fb91370 // fmla v16.4s, v27.4s, v25.s[1]
	WORD $0x4fb91391 // fmla v17.4s, v28.4s, v25.s[1]
	WORD $0x4f991b52 // fmla v18.4s, v26.4s, v25.s[2]
	WORD $0x4f991b73 // fmla v19.4s, v27.4s, v25.s[2]
	WORD $0x4f991b94 // fmla v20.4s, v28.4s, v25.s[2]
	WORD $0x4fb91b55 // fmla v21.4s, v26.4s, v25.s[3]
	WORD $0x4fb91b76 // fmla v22.4s, v27.4s, v25.s[3]
	WORD $0x4fb91b97 // fmla v23.4s, v28.4s, v25.s[3]
	// p+1
	VLD1.P 32(R1), [V24.S4, V25.S4]
	VLD1.P 48(R2), [V26.S4, V27.S4, V28.S4]
	WORD $0x4f981340 // fmla v0.4s, v26.4s, v24.s[0]
	WORD $0x4f981361 // fmla v1.4s, v27.4s, v24.s[0]
	WORD $0x4f981382 // fmla v2.4s, v28.4s, v24.s[0]
	WORD $0x4fb81343 // fmla v3.4s, v26.4s, v24.s[1]
	WORD $0x4fb81364 // fmla v4.4s, v27.4s, v24.s[1]
	WORD $0x4fb81385 // fmla v5.4s, v28.4s, v24.s[1]
	WORD $0x4f981b46 // fmla v6.4s, v26.4s, v24.s[2]
	WORD $0x4f981b67 // fmla v7.4s, v27.4s, v24.s[2]
	WORD $0x4f981b88 // fmla v8.4s, v28.4s, v24.s[2]
	WORD $0x4fb81b49 // fmla v9.4s, v26.4s, v24.s[3]
	WORD $0x4fb81b6a // fmla v10.4s, v27.4s, v24.s[3]
	WORD $0x4fb81b8b // fmla v11.4s, v28.4s, v24.s[3]
	WORD $0x4f99134c // fmla v12.4s, v26.4s, v25.s[0]
	WORD $0x4f99136d // fmla v13.4s, v27.4s, v25.s[0]
	WORD $0x4f99138e // fmla v14.4s, v28.4s, v25.s[0]
	WORD $0x4fb9134f // fmla v15.4s, v26.4s, v25.s[1]
	WORD $0x4fb91370 // fmla v16.4s, v27.4s, v25.s[1]
	WORD $0x4fb91391 // fmla v17.4s, v28.4s, v25.s[1]
	WORD $0x4f991b52 // fmla v18.4s, v26.4s, v25.s[2]
	WORD $0x4f991b73 // fmla v19.4s, v27.4s, v25.s[2]
	WORD $0x4f991b94 // fmla v20.4s, v28.4s, v25.s[2]
	WORD $0x4fb91b55 // fmla v21.4s, v26.4s, v25.s[3]
	WORD $0x4fb91b76 // fmla v22.4s, v27.4s, v25.s[3]
	WORD $0x4fb91b97 // fmla v23.4s, v28.4s, v25.s[3]
	// p+2
	VLD1.P 32(R1), [V24.S4, V25.S4]
	VLD1.P 48(R2), [V26.S4, V27.S4, V28.S4]
	WORD $0x4f981340 // fmla v0.4s, v26.4s, v24.s[0]
	WORD $0x4f981361 // fmla v1.4s, v27.4s, v24.s[0]
	WORD $0x4f981382 // fmla v2.4s, v28.4s, v24.s[0]
	WORD $0x4fb81343 // fmla v3.4s, v26.4s, v24.s[1]
	WORD $0x4fb81364 // fmla v4.4s, v27.4s, v24.s[1]
	WORD $0x4fb81385 // fmla v5.4s, v28.4s, v24.s[1]
	WORD $0x4f981b46 // fmla v6.4s, v26.4s, v24.s[2]
	WORD $0x4f981b67 // fmla v7.4s, v27.4s, v24.s[2]
	WORD $0x4f981b88 // fmla v8.4s, v28.4s, v24.s[2]
	WORD $0x4fb81b49 // fmla v9.4s, v26.4s, v24.s[3]
	WORD $0x4fb81b6a // fmla v10.4s, v27.4s, v24.s[3]
	WORD $0x4fb81b8b // fmla v11.4s, v28.4s, v24.s[3]
	WORD $0x4f99134c // fmla v12.4s, v26.4s, v25.s[0]
	WORD $0x4f99136d // fmla v13.4s, v27.4s, v25.s[0]
	WORD $0x4f99138e // fmla v14.4s, v28.4s, v25.s[0]
	WORD $0x4fb9134f // fmla v15.4s, v26.4s, v25.s[1]
	WORD $0x4fb91370 // fmla v16.4s, v27.4s, v25.s[1]
	WORD $0x4fb91391 // fmla v17.4s, v28.4s, v25.s[1]
	WORD $0x4f991b52 // fmla v18.4s, v26.4s, v25.s[2]
	WORD $0x4f991b73 // fmla v19.4s, v27.4s, v25.s[2]
	WORD $0x4f991b94 // fmla v20.4s, v28.4s, v25.s[2]
	WORD $0x4fb91b55 // fmla v21.4s, v26.4s, v25.s[3]
	WORD $0x4fb91b76 // fmla v22.4s, v27.4s, v25.s[3]
	WORD $0x4fb91b97 // fmla v23.4s, v28.4s, v25.s[3]
	// p+3
	VLD1.P 32(R1), [V24.S4, V25.S4]
	VLD1.P 48(R2), [V26.S4, V27.S4, V28.S4]
	WORD $0x4f981340 // fmla v0.4s, v26.4s, v24.s[0]
	WORD $0x4f981361 // fmla v1.4s, v27.4s, v24.s[0]
	WORD $0x4f981382 // fmla v2.4s, v28.4s, v24.s[0]
	WORD $0x4fb81343 // fmla v3.4s, v26.4s, v24.s[1]
	WORD $0x4fb81364 // fmla v4.4s, v27.4s, v24.s[1]
	WORD $0x4fb81385 // fmla v5.4s, v28.4s, v24.s[1]
	WORD $0x4f981b46 // fmla v6.4s, v26.4s, v24.s[2]
	WORD $0x4f981b67 // fmla v7.4s, v27.4s, v24.s[2]
	WORD $0x4f981b88 // fmla v8.4s, v28.4s, v24.s[2]
	WORD $0x4fb81b49 // fmla v9.4s, v26.4s, v24.s[3]
	WORD $0x4fb81b6a // fmla v10.4s, v27.4s, v24.s[3]
	WORD $0x4fb81b8b // fmla v11.4s, v28.4s, v24.s[3]
	WORD $0x4f99134c // fmla v12.4s, v26.4s, v25.s[0]
	WORD $0x4f99136d // fmla v13.4s, v27.4s, v25.s[0]
	WORD $0x4f99138e // fmla v14.4s, v28.4s, v25.s[0]
	WORD $0x4fb9134f // fmla v15.4s, v26.4s, v25.s[1]
	WORD $0x4fb91370 // fmla v16.4s, v27.4s, v25.s[1]
	WORD $0x4fb91391 // fmla v17.4s, v28.4s, v25.s[1]
	WORD $0x4f991b52 // fmla v18.4s, v26.4s, v25.s[2]
	WORD $0x4f991b73 // fmla v19.4s, v27.4s, v25.s[2]
	WORD $0x4f991b94 // fmla v20.4s, v28.4s, v25.s[2]
	WORD $0x4fb91b55 // fmla v21.4s, v26.4s, v25.s[3]
	WORD $0x4fb91b76 // fmla v22.4s, v27.4s, v25.s[3]
	WORD $0x4fb91b97 // fmla v23.4s, v28.4s, v25.s[3]
	SUB  $1, R5
	CBNZ R5, loop4

tail:
	CBZ  R6, scale

loop1:
	// one p
	VLD1.P 32(R1), [V24.S4, V25.S4]
	VLD1.P 48(R2), [V26.S4, V27.S4, V28.S4]
	WORD $0x4f981340 // fmla v0.4s, v26.4s, v24.s[0]
	WORD $0x4f981361 // fmla v1.4s, v27.4s, v24.s[0]
	WORD $0x4f981382 // fmla v2.4s, v28.4s, v24.s[0]
	WORD $0x4fb81343 // fmla v3.4s, v26.4s, v24.s[1]
	WORD $0x4fb81364 // fmla v4.4s, v27.4s, v24.s[1]
	WORD $0x4fb81385 // fmla v5.4s, v28.4s, v24.s[1]
	WORD $0x4f981b46 // fmla v6.4s, v26.4s, v24.s[2]
	WORD $0x4f981b67 // fmla v7.4s, v27.4s, v24.s[2]
	WORD $0x4f981b88 // fmla v8.4s, v28.4s, v24.s[2]
	WORD $0x4fb81b49 // fmla v9.4s, v26.4s, v24.s[3]
	WORD $0x4fb81b6a // fmla v10.4s, v27.4s, v24.s[3]
	WORD $0x4fb81b8b // fmla v11.4s, v28.4s, v24.s[3]
	WORD $0x4f99134c // fmla v12.4s, v26.4s, v25.s[0]
	WORD $0x4f99136d // fmla v13.4s, v27.4s, v25.s[0]
	WORD $0x4f99138e // fmla v14.4s, v28.4s, v25.s[0]
	WORD $0x4fb9134f // fmla v15.4s, v26.4s, v25.s[1]
	WORD $0x4fb91370 // fmla v16.4s, v27.4s, v25.s[1]
	WORD $0x4fb91391 // fmla v17.4s, v28.4s, v25.s[1]
	WORD $0x4f991b52 // fmla v18.4s, v26.4s, v25.s[2]
	WORD $0x4f991b73 // fmla v19.4s, v27.4s, v25.s[2]
	WORD $0x4f991b94 // fmla v20.4s, v28.4s, v25.s[2]
	WORD $0x4fb91b55 // fmla v21.4s, v26.4s, v25.s[3]
	WORD $0x4fb91b76 // fmla v22.4s, v27.4s, v25.s[3]
	WORD $0x4fb91b97 // fmla v23.4s, v28.4s, v25.s[3]
	SUB  $1, R6
	CBNZ R6, loop1

scale:
	FMOVS alpha+40(FP), F29
	FMOVS beta+44(FP), F30
	WORD $0x4f9d9000 // fmul v0.4s, v0.4s, v29.s[0]
	WORD $0x4f9d9021 // fmul v1.4s, v1.4s, v29.s[0]
	WORD $0x4f9d9042 // fmul v2.4s, v2.4s, v29.s[0]
	WORD $0x4f9d9063 // fmul v3.4s, v3.4s, v29.s[0]
	WORD $0x4f9d9084 // fmul v4.4s, v4.4s, v29.s[0]
	WORD $0x4f9d90a5 // fmul v5.4s, v5.4s, v29.s[0]
	WORD $0x4f9d90c6 // fmul v6.4s, v6.4s, v29.s[0]
	WORD $0x4f9d90e7 // fmul v7.4s, v7.4s, v29.s[0]
	WORD $0x4f9d9108 // fmul v8.4s, v8.4s, v29.s[0]
	WORD $0x4f9d9129 // fmul v9.4s, v9.4s, v29.s[0]
	WORD $0x4f9d914a // fmul v10.4s, v10.4s, v29.s[0]
	WORD $0x4f9d916b // fmul v11.4s, v11.4s, v29.s[0]
	WORD $0x4f9d918c // fmul v12.4s, v12.4s, v29.s[0]
	WORD $0x4f9d91ad // fmul v13.4s, v13.4s, v29.s[0]
	WORD $0x4f9d91ce // fmul v14.4s, v14.4s, v29.s[0]
	WORD $0x4f9d91ef // fmul v15.4s, v15.4s, v29.s[0]
	WORD $0x4f9d9210 // fmul v16.4s, v16.4s, v29.s[0]
	WORD $0x4f9d9231 // fmul v17.4s, v17.4s, v29.s[0]
	WORD $0x4f9d9252 // fmul v18.4s, v18.4s, v29.s[0]
	WORD $0x4f9d9273 // fmul v19.4s, v19.4s, v29.s[0]
	WORD $0x4f9d9294 // fmul v20.4s, v20.4s, v29.s[0]
	WORD $0x4f9d92b5 // fmul v21.4s, v21.4s, v29.s[0]
	WORD $0x4f9d92d6 // fmul v22.4s, v22.4s, v29.s[0]
	WORD $0x4f9d92f7 // fmul v23.4s, v23.4s, v29.s[0]
	FCMPS $(0.0), F30
	BEQ   store

	// beta ≠ 0: C = alpha·acc + beta·C, row by row.
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e1300 // fmla v0.4s, v24.4s, v30.s[0]
	WORD $0x4f9e1321 // fmla v1.4s, v25.4s, v30.s[0]
	WORD $0x4f9e1342 // fmla v2.4s, v26.4s, v30.s[0]
	VST1 [V0.S4, V1.S4, V2.S4], (R3)
	ADD  R4, R3
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e1303 // fmla v3.4s, v24.4s, v30.s[0]
	WORD $0x4f9e1324 // fmla v4.4s, v25.4s, v30.s[0]
	WORD $0x4f9e1345 // fmla v5.4s, v26.4s, v30.s[0]
	VST1 [V3.S4, V4.S4, V5.S4], (R3)
	ADD  R4, R3
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e1306 // fmla v6.4s, v24.4s, v30.s[0]
	WORD $0x4f9e1327 // fmla v7.4s, v25.4s, v30.s[0]
	WORD $0x4f9e1348 // fmla v8.4s, v26.4s, v30.s[0]
	VST1 [V6.S4, V7.S4, V8.S4], (R3)
	ADD  R4, R3
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e1309 // fmla v9.4s, v24.4s, v30.s[0]
	WORD $0x4f9e132a // fmla v10.4s, v25.4s, v30.s[0]
	WORD $0x4f9e134b // fmla v11.4s, v26.4s, v30.s[0]
	VST1 [V9.S4, V10.S4, V11.S4], (R3)
	ADD  R4, R3
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e130c // fmla v12.4s, v24.4s, v30.s[0]
	WORD $0x4f9e132d // fmla v13.4s, v25.4s, v30.s[0]
	WORD $0x4f9e134e // fmla v14.4s, v26.4s, v30.s[0]
	VST1 [V12.S4, V13.S4, V14.S4], (R3)
	ADD  R4, R3
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e130f // fmla v15.4s, v24.4s, v30.s[0]
	WORD $0x4f9e1330 // fmla v16.4s, v25.4s, v30.s[0]
	WORD $0x4f9e1351 // fmla v17.4s, v26.4s, v30.s[0]
	VST1 [V15.S4, V16.S4, V17.S4], (R3)
	ADD  R4, R3
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e1312 // fmla v18.4s, v24.4s, v30.s[0]
	WORD $0x4f9e1333 // fmla v19.4s, v25.4s, v30.s[0]
	WORD $0x4f9e1354 // fmla v20.4s, v26.4s, v30.s[0]
	VST1 [V18.S4, V19.S4, V20.S4], (R3)
	ADD  R4, R3
	VLD1 (R3), [V24.S4, V25.S4, V26.S4]
	WORD $0x4f9e1315 // fmla v21.4s, v24.4s, v30.s[0]
	WORD $0x4f9e1336 // fmla v22.4s, v25.4s, v30.s[0]
	WORD $0x4f9e1357 // fmla v23.4s, v26.4s, v30.s[0]
	VST1 [V21.S4, V22.S4, V23.S4], (R3)
	RET

store:
	// beta == 0: C is only written.
	VST1 [V0.S4, V1.S4, V2.S4], (R3)
	ADD  R4, R3
	VST1 [V3.S4, V4.S4, V5.S4], (R3)
	ADD  R4, R3
	VST1 [V6.S4, V7.S4, V8.S4], (R3)
	ADD  R4, R3
	VST1 [V9.S4, V10.S4, V11.S4], (R3)
	ADD  R4, R3
	VST1 [V12.S4, V13.S4, V14.S4], (R3)
	ADD  R4, R3
	VST1 [V15.S4, V16.S4, V17.S4], (R3)
	ADD  R4, R3
	VST1 [V18.S4, V19.S4, V20.S4], (R3)
	ADD  R4, R3
	VST1 [V21.S4, V22.S4, V23.S4], (R3)
	RET

// func packT4(dst *float32, dstStride int, src *float32, ld int, kc4 int)
//
// Transposing pack of four rows that are contiguous in p: for p < 4·kc4 and
// r < 4, dst[p·dstStride + r] = src[r·ld + p]. Four 4×4 blocks at a time,
// transposed with TRN1/TRN2.
TEXT ·packT4(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), R0
	MOVD dstStride+8(FP), R1
	LSL  $2, R1
	MOVD src+16(FP), R2
	MOVD ld+24(FP), R3
	LSL  $2, R3
	MOVD kc4+32(FP), R4
	ADD  R3, R2, R5
	ADD  R3, R5, R6
	ADD  R3, R6, R7
	CBZ  R4, tdone

tloop:
	VLD1.P 16(R2), [V0.S4] // a0 a1 a2 a3
	VLD1.P 16(R5), [V1.S4] // b0 b1 b2 b3
	VLD1.P 16(R6), [V2.S4] // c…
	VLD1.P 16(R7), [V3.S4] // d…
	VTRN1  V1.S4, V0.S4, V4.S4 // a0 b0 a2 b2
	VTRN2  V1.S4, V0.S4, V5.S4 // a1 b1 a3 b3
	VTRN1  V3.S4, V2.S4, V6.S4 // c0 d0 c2 d2
	VTRN2  V3.S4, V2.S4, V7.S4 // c1 d1 c3 d3
	VTRN1  V6.D2, V4.D2, V0.D2 // a0 b0 c0 d0
	VTRN1  V7.D2, V5.D2, V1.D2 // a1 b1 c1 d1
	VTRN2  V6.D2, V4.D2, V2.D2 // a2 b2 c2 d2
	VTRN2  V7.D2, V5.D2, V3.D2 // a3 b3 c3 d3
	VST1.P [V0.S4], (R0)(R1)
	VST1.P [V1.S4], (R0)(R1)
	VST1.P [V2.S4], (R0)(R1)
	VST1.P [V3.S4], (R0)(R1)
	SUB    $1, R4
	CBNZ   R4, tloop

tdone:
	RET

// func packN4(dst *float32, dstStride int, src *float32, ld int, kc int)
//
// Copying pack of four columns that are contiguous in r: for p < kc and
// r < 4, dst[p·dstStride + r] = src[p·ld + r].
TEXT ·packN4(SB), NOSPLIT, $0-40
	MOVD dst+0(FP), R0
	MOVD dstStride+8(FP), R1
	LSL  $2, R1
	MOVD src+16(FP), R2
	MOVD ld+24(FP), R3
	LSL  $2, R3
	MOVD kc+32(FP), R4
	LSR  $1, R4, R5
	AND  $1, R4, R6
	CBZ  R5, ntail

nloop2:
	VLD1.P (R2)(R3), [V0.S4]
	VLD1.P (R2)(R3), [V1.S4]
	VST1.P [V0.S4], (R0)(R1)
	VST1.P [V1.S4], (R0)(R1)
	SUB    $1, R5
	CBNZ   R5, nloop2

ntail:
	CBZ  R6, ndone
	VLD1 (R2), [V0.S4]
	VST1 [V0.S4], (R0)

ndone:
	RET

package main

// The ZMM forms (-zmm), for the CPUs where 512-bit FMAs run at full rate
// (Zen 5, Intel's server cores) and for Zen 4, which double-pumps them but
// still runs these faster (kernels/dispatch_amd64.go, planAVX512). They
// come from the same emitters as the AVX2 forms, with the same instructions
// per lane, so every lane computes the same bits:
//   - the GRU gate step and its backward, Adam, tanh and exp, whose lanes
//     are independent, run in 16 lanes (ymm() returns ZMM registers; the
//     chunk size is lanes, vecBytes);
//   - the policy head's forward and backward sum across a row's columns,
//     lane by lane over 8-column chunks and then across the 8 lanes; they
//     keep that order by holding the same chunk of two rows in the halves of
//     one ZMM register (policy_zmm.go).
//
// What changes from the AVX2 form:
//   - tail masks: a K register from masktable16 and EVEX masked VMOVUPS
//     instead of VMASKMOVPS (chunk in main.go), VMOVAPS with a mask instead
//     of VANDPS/VBLENDVPS with a vector mask, and VCMPPS/VPCMPEQD into K
//     registers (logN, policy_zmm.go), all selecting the same lanes;
//   - constants: one element each, read by an embedded broadcast {1to16}
//     (so a constant operand never splits a cache line), and a constant
//     moved into a register is a VBROADCASTSS;
//   - VANDPS/VXORPS/VORPS become VPANDD/VPXORD/VPORD (the same bits, in
//     AVX512F rather than AVX512DQ) and VROUNDPS $0 becomes VRNDSCALEPS $0
//     (round to nearest even, as before);
//   - exp's p·2^n is one VSCALEFPS by n as a float instead of nine integer
//     and multiply steps (two exact power-of-two factors, one rounding:
//     the same single rounding of the same product), and tanh's 2^n is
//     VSCALEFPS of 1 (TestZMMExpTanhEveryFloat);
//   - the GRU gate step runs three chunks side by side, not two: the exp
//     chains are latency-bound, and 32 registers hold three; it and the
//     policy forward keep exp's clamp bounds in registers (holdConstants)
//     rather than broadcast them at every clamp, which is faster on Zen 4
//     (docs/performance.md, "Measurements behind design choices").
//
// sumSquares (a float64 reduction) and add (bound by memory) have no ZMM form.

import (
	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// wide is set by -zmm.
var wide bool

// broadcastable names the constants that an embedded broadcast may read.
var broadcastable = map[string]bool{}

func sfx() string {
	if wide {
		return "AVX512"
	}
	return "AVX2"
}

func lanes() int {
	if wide {
		return 16
	}
	return 8
}

func lanesLog() int {
	if wide {
		return 4
	}
	return 3
}

func vecBytes() int { return 4 * lanes() }

// imm is n as the smallest immediate that holds it sign-extended.
func imm(n int) Op {
	if n < 128 {
		return U8(n)
	}
	return U32(n)
}

// ctx is avo's context with the instructions that differ under -zmm
// intercepted; without -zmm each passes its operands through unchanged.
type ctx struct{ *build.Context }

// bcst reports whether ops[0] is a constant to read by broadcast.
func bcst(ops []Op) bool {
	if !wide || len(ops) == 0 {
		return false
	}
	m, ok := ops[0].(Mem)
	return ok && m.Index == nil && broadcastable[m.Symbol.Name]
}

func pick(ops []Op, plain, broadcast func(...Op)) {
	if bcst(ops) {
		broadcast(ops...)
		return
	}
	plain(ops...)
}

func (x ctx) VADDPS(ops ...Op)       { pick(ops, x.Context.VADDPS, x.Context.VADDPS_BCST) }
func (x ctx) VSUBPS(ops ...Op)       { pick(ops, x.Context.VSUBPS, x.Context.VSUBPS_BCST) }
func (x ctx) VMULPS(ops ...Op)       { pick(ops, x.Context.VMULPS, x.Context.VMULPS_BCST) }
func (x ctx) VDIVPS(ops ...Op)       { pick(ops, x.Context.VDIVPS, x.Context.VDIVPS_BCST) }
func (x ctx) VMINPS(ops ...Op)       { pick(ops, x.Context.VMINPS, x.Context.VMINPS_BCST) }
func (x ctx) VMAXPS(ops ...Op)       { pick(ops, x.Context.VMAXPS, x.Context.VMAXPS_BCST) }
func (x ctx) VFMADD213PS(ops ...Op)  { pick(ops, x.Context.VFMADD213PS, x.Context.VFMADD213PS_BCST) }
func (x ctx) VFMADD231PS(ops ...Op)  { pick(ops, x.Context.VFMADD231PS, x.Context.VFMADD231PS_BCST) }
func (x ctx) VFNMADD231PS(ops ...Op) { pick(ops, x.Context.VFNMADD231PS, x.Context.VFNMADD231PS_BCST) }
func (x ctx) VPADDD(ops ...Op)       { pick(ops, x.Context.VPADDD, x.Context.VPADDD_BCST) }
func (x ctx) VPSUBD(ops ...Op)       { pick(ops, x.Context.VPSUBD, x.Context.VPSUBD_BCST) }

func (x ctx) VANDPS(ops ...Op) {
	if wide {
		pick(ops, x.Context.VPANDD, x.Context.VPANDD_BCST)
		return
	}
	x.Context.VANDPS(ops...)
}

func (x ctx) VXORPS(ops ...Op) {
	if wide {
		pick(ops, x.Context.VPXORD, x.Context.VPXORD_BCST)
		return
	}
	x.Context.VXORPS(ops...)
}

func (x ctx) VORPS(ops ...Op) {
	if wide {
		pick(ops, x.Context.VPORD, x.Context.VPORD_BCST)
		return
	}
	x.Context.VORPS(ops...)
}

// VMOVUPS of a constant into a register is a broadcast.
func (x ctx) VMOVUPS(ops ...Op) {
	if bcst(ops) {
		x.Context.VBROADCASTSS(ops...)
		return
	}
	x.Context.VMOVUPS(ops...)
}

func (x ctx) VROUNDPS(i, a, d Op) {
	if wide {
		x.Context.VRNDSCALEPS(i, a, d)
		return
	}
	x.Context.VROUNDPS(i, a, d)
}

// The instructions that only the AVX2-only kernels use must not reach a ZMM
// form unnoticed.
func (x ctx) VBLENDVPS(a, b, m, d Op) { avx2Only("VBLENDVPS"); x.Context.VBLENDVPS(a, b, m, d) }
func (x ctx) VCMPPS(ops ...Op)        { avx2Only("VCMPPS"); x.Context.VCMPPS(ops...) }
func (x ctx) VEXTRACTF128(i, y, d Op) { avx2Only("VEXTRACTF128"); x.Context.VEXTRACTF128(i, y, d) }
func (x ctx) VMOVDQU(a, d Op)         { avx2Only("VMOVDQU"); x.Context.VMOVDQU(a, d) }

func avx2Only(what string) {
	if wide {
		panic(what + " in a ZMM form")
	}
}

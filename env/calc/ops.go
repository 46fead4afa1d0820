package calc

import "github.com/simdrl/simdrl/env/interp"

// Ops is the instruction table, indexed by token. Every token is an op: the
// digits and CTX do nothing (they still count as a step).
var Ops = [Vocab]interp.Op{
	LOAD: {Kind: interp.KindSet, Src: interp.SrcOperand, Dst: interp.RegV},
	ADD:  {Kind: interp.KindAdd, Src: interp.SrcOperand, Dst: interp.RegV},
	SUB:  {Kind: interp.KindSub, Src: interp.SrcOperand, Dst: interp.RegV},
	MUL:  {Kind: interp.KindMul, Src: interp.SrcOperand, Dst: interp.RegV},
	STO:  {Kind: interp.KindSet, Src: interp.SrcV, Dst: interp.RegM},
	MADD: {Kind: interp.KindAdd, Src: interp.SrcM, Dst: interp.RegV},
	MSUB: {Kind: interp.KindSubFrom, Src: interp.SrcM, Dst: interp.RegV},
	ANS:  {Kind: interp.KindAnswer, Src: interp.SrcNone, Dst: interp.RegV},
}

// BranchOps is the branching machine's table: Ops, then NEG and SWAP. The
// 19-token table is its prefix, unchanged, so an open-loop task's table,
// hashes and kernels stay what they were.
var BranchOps = [BranchVocab]interp.Op{
	LOAD: Ops[LOAD], ADD: Ops[ADD], SUB: Ops[SUB], MUL: Ops[MUL],
	STO: Ops[STO], MADD: Ops[MADD], MSUB: Ops[MSUB], ANS: Ops[ANS],
	NEG:  {Kind: interp.KindNeg, Src: interp.SrcV, Dst: interp.RegV},
	SWAP: {Kind: interp.KindSwap, Src: interp.SrcM, Dst: interp.RegV},
}

// OpOf returns the op of a token of the 19-token machine; tokens outside its
// vocabulary (NEG and SWAP included) do nothing.
func OpOf(tok int32) interp.Op { return OpIn(Ops[:], tok) }

// OpIn returns the op of a token in the table ops (Ops[:] or BranchOps[:]);
// tokens outside the table do nothing, as in a kernel that reads the table.
func OpIn(ops []interp.Op, tok int32) interp.Op { return interp.OpIn(ops, tok) }

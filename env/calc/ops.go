package calc

// OpKind is what an op does to its destination register, given its source.
type OpKind int32

const (
	KindNone    OpKind = iota // nothing (digits and CTX written as actions)
	KindSet                   // dst ← src
	KindAdd                   // dst ← dst + src
	KindSub                   // dst ← dst − src
	KindMul                   // dst ← dst × src
	KindSubFrom               // dst ← src − dst
	KindAnswer                // the episode ends; v is the answer
	KindNeg                   // dst ← −src (NEG: v ← −v)
	KindSwap                  // dst ↔ src, for src v or m and dst the other (SWAP: v ↔ m)
)

// Source is where an op's operand comes from.
type Source int32

const (
	SrcNone    Source = iota // the op takes no operand
	SrcOperand               // the next context digit; consumes it (the operand pointer advances)
	SrcV                     // the value register v
	SrcM                     // the memory m
)

// Register is an op's destination.
type Register int32

const (
	RegV Register = iota // the value register v
	RegM                 // the memory m
)

// Op is one instruction as data: a CUDA twin reads the same table (three int32
// per token) and interprets it with the same switch as Machine.Apply.
type Op struct {
	Kind OpKind
	Src  Source
	Dst  Register
}

// Ops is the instruction table, indexed by token. Every token is an op: the
// digits and CTX do nothing (they still count as a step).
var Ops = [Vocab]Op{
	LOAD: {KindSet, SrcOperand, RegV},
	ADD:  {KindAdd, SrcOperand, RegV},
	SUB:  {KindSub, SrcOperand, RegV},
	MUL:  {KindMul, SrcOperand, RegV},
	STO:  {KindSet, SrcV, RegM},
	MADD: {KindAdd, SrcM, RegV},
	MSUB: {KindSubFrom, SrcM, RegV},
	ANS:  {KindAnswer, SrcNone, RegV},
}

// BranchOps is the branching machine's table: Ops, then NEG and SWAP. The
// 19-token table is its prefix, unchanged, so an open-loop task's table,
// hashes and kernels stay what they were.
var BranchOps = [BranchVocab]Op{
	LOAD: Ops[LOAD], ADD: Ops[ADD], SUB: Ops[SUB], MUL: Ops[MUL],
	STO: Ops[STO], MADD: Ops[MADD], MSUB: Ops[MSUB], ANS: Ops[ANS],
	NEG:  {KindNeg, SrcV, RegV},
	SWAP: {KindSwap, SrcM, RegV},
}

// OpOf returns the op of a token of the 19-token machine; tokens outside its
// vocabulary (NEG and SWAP included) do nothing.
func OpOf(tok int32) Op { return OpIn(Ops[:], tok) }

// OpIn returns the op of a token in the table ops (Ops[:] or BranchOps[:]);
// tokens outside the table do nothing, as in a kernel that reads the table.
func OpIn(ops []Op, tok int32) Op {
	if tok < 0 || int(tok) >= len(ops) {
		return Op{}
	}
	return ops[tok]
}

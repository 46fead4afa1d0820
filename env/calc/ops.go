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

// OpOf returns the op of a token; tokens outside the vocabulary do nothing.
func OpOf(tok int32) Op {
	if tok < 0 || tok >= Vocab {
		return Op{}
	}
	return Ops[tok]
}

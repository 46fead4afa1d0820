package interp

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
// per token) and interprets it with the same switch as calc.Machine.Apply.
type Op struct {
	Kind OpKind
	Src  Source
	Dst  Register
}

// OpIn returns the op of a token in the table ops; tokens outside the
// table do nothing, as in a kernel that reads the table.
func OpIn(ops []Op, tok int32) Op {
	if tok < 0 || int(tok) >= len(ops) {
		return Op{}
	}
	return ops[tok]
}

// Observation is what a task's policy observes after each token, as data: a
// GPU twin switches on it as on an op's kind.
type Observation int32

const (
	ObserveNone  Observation = iota // open-loop: no observation
	ObserveSigns                    // the signs of v and v − m (calc.Machine.Observe), SignObservations tokens
)

// SignObservations is the size of ObserveSigns' vocabulary: 3 signs of v
// times 3 of v − m.
const SignObservations = 9

// Observations is the size of the kind's observation vocabulary.
func (o Observation) Observations() int {
	if o == ObserveSigns {
		return SignObservations
	}
	return 0
}

package tape

// Cell is one cell of a tape: a digit 0..9, an operator, or a parenthesis.
// The cell past the last is the tape's end (Machine.Head == len).
type Cell int8

// The cells that are not digits.
const (
	Plus  Cell = 10 + iota // +
	Minus                  // −
	Times                  // ×
	Open                   // (
	Close                  // )
	// Leaf is a template's leaf (Member.Cells), where an instance puts an
	// operand's digit; it never lies on a machine's tape.
	Leaf
	// The branching cells (Variant.Branching): a function's name and its
	// opening bracket are one cell ("abs(", "max(", "min("), its
	// arguments are separated by Comma and closed by Close.
	Abs   // abs(
	Max   // max(
	Min   // min(
	Comma // ,
)

// IsDigit reports whether c is a digit 0..9.
func (c Cell) IsDigit() bool { return c >= 0 && c <= 9 }

// IsOperator reports whether c is + − or ×.
func (c Cell) IsOperator() bool { return c == Plus || c == Minus || c == Times }

// IsFunction reports whether c opens a branching function: abs( max( min(.
func (c Cell) IsFunction() bool { return c == Abs || c == Max || c == Min }

// isBracket reports whether c opens a bracket: "(" or a function.
func (c Cell) isBracket() bool { return c == Open || c.IsFunction() }

// precedence is × above + and −; all three associate to the left.
func (c Cell) precedence() int {
	if c == Times {
		return 2
	}
	return 1
}

func (c Cell) String() string {
	switch {
	case c.IsDigit():
		return string(rune('0' + c))
	case c >= Plus && c <= Comma:
		return [...]string{"+", "-", "*", "(", ")", "x", "abs(", "max(", "min(", ","}[c-Plus]
	}
	return "?"
}

// Tool is an action of the policy: one of NumTools.
type Tool = int32

// The tools. Each is valid only in the machine states its comment names; an
// invalid tool changes nothing but costs its step (Machine.Step).
const (
	// PUSHV consumes the digit under the head: pushes its value on the
	// value stack and moves the head on.
	PUSHV Tool = iota
	// PUSHOP consumes the operator or "(" under the head: pushes it on the
	// operator stack and moves the head on.
	PUSHOP
	// APPLY pops the operator on top of the operator stack (not a "(") and
	// the two values on top of the value stack, and pushes their result
	// (left op right, the right operand on top). The head stays.
	APPLY
	// POPPAREN consumes the ")" under the head when a "(" is on top of the
	// operator stack: pops it and moves the head on. It is the only way
	// past a ")".
	POPPAREN
	// ANS answers the one value left, when the head is at the tape's end,
	// the operator stack is empty and the value stack holds exactly one
	// value. It ends the episode.
	ANS
	// NumTools is how many tools the strict machine has.
	NumTools
)

// NEXT is the loose machine's extra tool (Variant.Loose): it moves the head
// one cell on, past whatever is there, consuming nothing. The strict
// machine has no such tool (NEXT is invalid there).
const NEXT Tool = NumTools

// NumLooseTools is how many tools the loose machine has (NEXT last).
const NumLooseTools = NumTools + 1

// The unstacked machine's tools (Variant.Unstacked), in place of APPLY,
// which has no operator stack to pop: each applies its own operator to the
// two values on top of the value stack (left op right) and pushes the
// result, so the policy names the pending operator from its own memory.
const (
	ADD Tool = NumLooseTools + iota
	SUB
	MUL
	// NumAllTools is how many tools the machines without branching have.
	NumAllTools
)

// The branching machine's tools (Variant.Branching), which resolve a
// function at its ")" (the head on it, the function on top of the operator
// stack, its arguments on top of the value stack): each pops the function
// and moves the head on. Which one is right depends on the operands, and
// the observation shows the comparison that decides it.
const (
	// KEEP keeps the top value: abs(x) as x, max and min as their right
	// argument (the left one is dropped).
	KEEP Tool = NumAllTools + iota
	// OTHER takes the other: abs(x) as −x, max and min as their left
	// argument (the right one is dropped).
	OTHER
	// NumBranchingTools is how many tool numbers there are with KEEP and
	// OTHER.
	NumBranchingTools
)

var toolNames = [...]string{"PUSHV", "PUSHOP", "APPLY", "POPPAREN", "ANS", "NEXT", "ADD", "SUB", "MUL", "KEEP", "OTHER"}

// ToolName spells a tool (every machine's); "[?]" for anything else.
func ToolName(t Tool) string {
	if t < 0 || t >= NumBranchingTools {
		return "[?]"
	}
	return toolNames[t]
}

// The observation is the token under the head (its kind: a digit's value is
// the machine's business, not the policy's) × the operator stack's top.
const (
	headKinds = 7 // digit, + − × ( ) and the tape's end
	topKinds  = 5 // empty, + − × (
	// NumObservations is the observation vocabulary's size.
	NumObservations = headKinds * topKinds
)

// headKind is the kind of the cell under the head: 0 a digit, 1..5 + − × ( ),
// 6 the end.
func headKind(c Cell, atEnd bool) int32 {
	switch {
	case atEnd:
		return 6
	case c.IsDigit():
		return 0
	}
	return int32(c-Plus) + 1
}

// topKind is the kind of the operator stack's top: 0 empty, 1..4 + − × (.
func topKind(c Cell, empty bool) int32 {
	if empty {
		return 0
	}
	return int32(c-Plus) + 1
}

// ObservationName spells an observation, "head·top": "d·" (a digit, the
// stack empty), "+·*", ")·(", "$·" (the end), … ; "[?]" outside the
// vocabulary.
func ObservationName(obs int32) string {
	if obs < 0 || obs >= NumObservations {
		return "[?]"
	}
	head := [...]string{"d", "+", "-", "*", "(", ")", "$"}[obs/topKinds]
	top := [...]string{"", "+", "-", "*", "("}[obs%topKinds]
	return head + "·" + top
}

// The branching machine's observation (Variant.Branching): the kind under
// the head, now also abs( max( min( and ",", × the operator stack's top,
// where a function on top comes with the sign of the comparison that
// resolves it when a ")" is under the head, where it is resolved: for abs
// the sign of the top value, for max and min the sign of left − right (the
// value under the top against the top; a missing value reads as 0).
// Elsewhere its sign reads as 0: the values on top then belong to no
// decision, and their signs would show the policy inputs that only longer
// expressions make (a "(" opening max's second argument with two values
// pending below it first occurs past the trained sizes).
const (
	branchHeadKinds = headKinds + 4         // … abs( max( min( ,
	branchTopKinds  = topKinds + 3*numSigns // … abs, max, min × (<0, =0, >0)
	numSigns        = 3
	// NumBranchingObservations is the branching observation vocabulary's
	// size.
	NumBranchingObservations = branchHeadKinds * branchTopKinds
)

// branchHeadKind extends headKind: 7..10 for abs( max( min( and ",".
func branchHeadKind(c Cell, atEnd bool) int32 {
	if !atEnd && c >= Abs && c <= Comma {
		return headKinds + int32(c-Abs)
	}
	return headKind(c, atEnd)
}

// branchTopKind extends topKind: a function on top is 5 + 3·f + s, f 0
// abs, 1 max, 2 min, s 0 below zero, 1 zero, 2 above.
func branchTopKind(c Cell, empty bool, sign int) int32 {
	if !empty && c.IsFunction() {
		return topKinds + numSigns*int32(c-Abs) + int32(sign+1)
	}
	return topKind(c, empty)
}

// BranchingObservationName spells a branching observation, "head·top":
// ")·max>" (a ")" under the head, max on top, left > right), ",·min" (the
// sign unobserved), "abs(·+", … ; "[?]" outside the vocabulary.
func BranchingObservationName(obs int32) string {
	if obs < 0 || obs >= NumBranchingObservations {
		return "[?]"
	}
	head := [...]string{"d", "+", "-", "*", "(", ")", "$", "abs(", "max(", "min(", ","}[obs/branchTopKinds]
	top := obs % branchTopKinds
	if top < topKinds {
		return head + "·" + [...]string{"", "+", "-", "*", "("}[top]
	}
	f, s := (top-topKinds)/numSigns, (top-topKinds)%numSigns
	sign := [...]string{"<", "", ">"}[s]
	if s == 1 && head == ")" {
		sign = "=" // observed only at a ")"
	}
	return head + "·" + [...]string{"abs", "max", "min"}[f] + sign
}

// HeadlessObservationName spells the observation of a machine whose head's
// token is unobserved (Variant.Headless): the operator stack's top, "·+",
// "·(", "·" when empty.
func HeadlessObservationName(obs int32) string {
	if obs < 0 || obs >= topKinds {
		return "[?]"
	}
	return "·" + [...]string{"", "+", "-", "*", "("}[obs]
}

// HeadlessObservations is the observation vocabulary's size when the token
// under the head is not observed (Variant.Headless): the operator stack's
// top only.
const HeadlessObservations = topKinds

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
)

// IsDigit reports whether c is a digit 0..9.
func (c Cell) IsDigit() bool { return c >= 0 && c <= 9 }

// IsOperator reports whether c is + − or ×.
func (c Cell) IsOperator() bool { return c == Plus || c == Minus || c == Times }

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
	case c >= Plus && c <= Leaf:
		return [...]string{"+", "-", "*", "(", ")", "x"}[c-Plus]
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
	// NumAllTools is how many tools there are, every machine's.
	NumAllTools
)

var toolNames = [...]string{"PUSHV", "PUSHOP", "APPLY", "POPPAREN", "ANS", "NEXT", "ADD", "SUB", "MUL"}

// ToolName spells a tool (every machine's); "[?]" for anything else.
func ToolName(t Tool) string {
	if t < 0 || t >= NumAllTools {
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

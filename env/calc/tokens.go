package calc

// The 19-token vocabulary: the digits 0–9, the context marker, then the tools.
// ANS is the last token of the open-loop machine, so Vocab = ANS + 1. The
// branching machine (levels with abs, max or min) appends NEG and SWAP after
// ANS, so that every token of the 19-token machine keeps its number:
// BranchVocab = 21.
const (
	CTX  = 10 // ends the context; also the policy's first input
	LOAD = 11 // v ← next operand
	ADD  = 12 // v ← v + next operand
	SUB  = 13 // v ← v − next operand
	MUL  = 14 // v ← v × next operand
	STO  = 15 // m ← v
	MADD = 16 // v ← m + v
	MSUB = 17 // v ← m − v
	ANS  = 18 // answer v; ends the episode

	Vocab = 19

	NEG  = 19 // v ← −v (branching machine only)
	SWAP = 20 // v ↔ m (branching machine only)

	BranchVocab = 21
)

// MaxVars is the most context digits a level shows: the variables a–h.
const MaxVars = 8

// FirstTool is the first tool token; the tools are FirstTool..ANS.
const FirstTool = LOAD

var tokenNames = [BranchVocab]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
	"[CTX]", "[LOAD]", "[ADD]", "[SUB]", "[MUL]", "[STO]", "[M+V]", "[M-V]", "[ANS]", "[NEG]", "[SWAP]"}

// TokenName spells a token for explanations; "[?]" for anything outside the
// branching machine's vocabulary (BranchVocab).
func TokenName(tok int32) string {
	if tok < 0 || tok >= BranchVocab {
		return "[?]"
	}
	return tokenNames[tok]
}

// ProgramString spells a program as space-separated token names.
func ProgramString(prog []int32) string {
	s := ""
	for i, t := range prog {
		if i > 0 {
			s += " "
		}
		s += TokenName(t)
	}
	return s
}

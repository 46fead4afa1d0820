package seed

// The 18-token vocabulary: the digits 0–9, then the marker and tool tokens.
const (
	CTX = 10 // ends the context; also the policy's first input
	MUL = 11
	ADD = 12
	SUB = 13
	ANS = 14
	STO = 15
	RCL = 16
	EOS = 17 // padding in the seed; a no-op as an action

	Vocab = 18
)

// NumLevels is the number of curriculum levels (context of 3, 4, 5 digits).
const NumLevels = 3

// MaxSteps is the seed's ToolEnv(max_steps=7).
const MaxSteps = 7

var tokenNames = [Vocab]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
	"[CTX]", "[MUL]", "[ADD]", "[SUB]", "[ANS]", "[STO]", "[RCL]", "[EOS]"}

// TokenName spells a token as the seed's tok2str does.
func TokenName(tok int) string {
	if tok < 0 || tok >= Vocab {
		return "[?]"
	}
	return tokenNames[tok]
}

package calc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Every tool does what its name says, on a machine holding v=7, m=3, with
// the next operand 4 (digits 2, 4, 9; p=1).
func TestToolsDoWhatTheirNamesSay(t *testing.T) {
	digits := [MaxVars]int32{2, 4, 9}
	cases := []struct {
		tok  int32
		want Machine
	}{
		{LOAD, Machine{V: 4, M: 3, P: 2}},
		{ADD, Machine{V: 11, M: 3, P: 2}},
		{SUB, Machine{V: 3, M: 3, P: 2}},
		{MUL, Machine{V: 28, M: 3, P: 2}},
		{STO, Machine{V: 7, M: 7, P: 1}},
		{MADD, Machine{V: 10, M: 3, P: 1}},
		{MSUB, Machine{V: -4, M: 3, P: 1}},
		{ANS, Machine{V: 7, M: 3, P: 1}},
		{CTX, Machine{V: 7, M: 3, P: 1}},
		{5, Machine{V: 7, M: 3, P: 1}},
	}
	for _, c := range cases {
		m := Machine{V: 7, M: 3, P: 1}
		m.Apply(OpOf(c.tok), &digits, 3)
		require.Equal(t, c.want, m, TokenName(c.tok))
	}
}

// With every operand consumed, the operand tools do nothing; the others still work.
func TestOperandToolsStopAtTheEnd(t *testing.T) {
	digits := [MaxVars]int32{2, 4, 9, 5}
	for _, tok := range []int32{LOAD, ADD, SUB, MUL} {
		m := Machine{V: 7, M: 3, P: 3}
		m.Apply(Ops[tok], &digits, 3)
		require.Equal(t, Machine{V: 7, M: 3, P: 3}, m, TokenName(tok))
	}
	m := Machine{V: 7, M: 3, P: 3}
	m.Apply(Ops[MADD], &digits, 3)
	require.Equal(t, int64(10), m.V)
}

func TestVocabulary(t *testing.T) {
	require.Equal(t, int32(Vocab-1), int32(ANS), "ANS ends the vocabulary")
	names := map[string]bool{}
	for tok := int32(0); tok < Vocab; tok++ {
		require.False(t, names[TokenName(tok)], "duplicate name %s", TokenName(tok))
		names[TokenName(tok)] = true
		if tok < FirstTool {
			require.Equal(t, KindNone, Ops[tok].Kind, "token %d is not a tool", tok)
		} else {
			require.NotEqual(t, KindNone, Ops[tok].Kind, "tool %s has no op", TokenName(tok))
		}
	}
	require.Equal(t, "[?]", TokenName(Vocab))
	require.Equal(t, Op{}, OpOf(-1))
	require.Equal(t, "[LOAD] [MUL] [ANS]", ProgramString([]int32{LOAD, MUL, ANS}))
}

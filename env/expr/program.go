package expr

import (
	"fmt"
	"strings"

	"github.com/simdrl/simdrl/env/calc"
)

// toolNames spell the tools in the generated table.
var toolNames = map[int32]string{calc.LOAD: "LOAD", calc.ADD: "ADD", calc.SUB: "SUB", calc.MUL: "MUL",
	calc.STO: "STO", calc.MADD: "M+V", calc.MSUB: "M-V", calc.ANS: "ANS"}

// ProgramText spells a program of tools as the table does ("LOAD MUL ANS").
func ProgramText(prog []int32) string {
	names := make([]string, len(prog))
	for i, tok := range prog {
		names[i] = toolNames[tok]
		if names[i] == "" {
			names[i] = calc.TokenName(tok)
		}
	}
	return strings.Join(names, " ")
}

// ParseProgram reads ProgramText's spelling of a program of tools.
func ParseProgram(s string) ([]int32, error) {
	var prog []int32
	for _, name := range strings.Fields(s) {
		tok := int32(-1)
		for t, n := range toolNames {
			if n == name {
				tok = t
			}
		}
		if tok < 0 {
			return nil, fmt.Errorf("program %q: no tool %q", s, name)
		}
		prog = append(prog, tok)
	}
	return prog, nil
}

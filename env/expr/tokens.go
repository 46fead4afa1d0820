package expr

import (
	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/env/interp"
)

// MaxLeaves is the largest expression size the family has: the 7-leaf
// search already takes the generator most of its time, each size costing
// several times the last (docs/performance.md, "Searches and generated
// tables"), and the longest 7-leaf spelling, 21 tokens, fits the context
// the CUDA kernels hold (24 tokens, gpu/internal/record.MaxShown).
const MaxLeaves = 7

// The vocabulary: calc's 19 tokens as they are (digits 0–9, CTX 10, the
// tools LOAD 11 … ANS 18), then the context tokens: the leaves a, b, …
// (MaxLeaves of them), then "(", ")", "+", "-", "*". The policy reads the
// context tokens and never writes them; the machine does nothing with them.
const (
	FirstLeaf = calc.Vocab            // a
	LParen    = FirstLeaf + MaxLeaves // (
	RParen    = LParen + 1            // )
	Plus      = LParen + 2            // +
	Minus     = LParen + 3            // -
	Times     = LParen + 4            // *
	Vocab     = Times + 1             // 31
)

// TokenName spells a token: calc's names for 0–18 ("[LOAD]"), the symbol
// for a context token ("a", "("); "[?]" outside the vocabulary.
func TokenName(tok int32) string {
	switch {
	case tok >= 0 && tok < calc.Vocab:
		return calc.TokenName(tok)
	case tok >= FirstLeaf && tok < LParen:
		return string(rune('a' + tok - FirstLeaf))
	case tok >= LParen && tok < Vocab:
		return string("()+-*"[tok-LParen])
	}
	return "[?]"
}

// Ops is the machine's table over the whole vocabulary: calc.Ops for 0–18,
// nothing for the context tokens (as for the digits and CTX).
func Ops() []interp.Op {
	ops := make([]interp.Op, Vocab)
	copy(ops, calc.Ops[:])
	return ops
}

// ShownTokens spells an expression as context tokens, one per character.
func ShownTokens(spelling string) []int32 {
	out := make([]int32, len(spelling))
	for i := 0; i < len(spelling); i++ {
		switch c := spelling[i]; {
		case c >= 'a' && c < 'a'+MaxLeaves:
			out[i] = FirstLeaf + int32(c-'a')
		default:
			for j := 0; j < 5; j++ {
				if "()+-*"[j] == c {
					out[i] = LParen + int32(j)
				}
			}
		}
	}
	return out
}

package countdown

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// Legal (pair by pair, Rules.Allowed) says what Allows (Result, the rules'
// Apply) says of every token, in every pool a random walk of legal moves
// and UNDOs reaches, under both rules: small numbers, so that zeros,
// equal values, exact and inexact divisions, negatives and fractions (the
// 24 Game) all occur.
func TestLegalIsAllows(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var dst [MaxMoves]bool
	checked, refused := 0, 0
	for _, rules := range []Rules{Integers, Fractions} {
		for range 3000 {
			n := 1 + r.IntN(MaxNumbers)
			numbers := make([]int64, n)
			for i := range numbers {
				numbers[i] = int64(r.IntN(13))
			}
			var p Pool
			p.Reset(rules, numbers, Int(int64(r.IntN(30))))
			for range 12 {
				p.Legal(dst[:])
				var legal []int32
				for tok := range int32(Moves(n)) {
					if want := p.Allows(tok); dst[tok] != want { // not require.Equal: millions of calls
						t.Fatalf("%v, rules %d, token %s: Legal says %v, Allows %v", p.String(), rules, TokenName(n, tok), dst[tok], want)
					}
					checked++
					if dst[tok] {
						legal = append(legal, tok)
					} else {
						refused++
					}
				}
				if len(legal) == 0 {
					break
				}
				require.True(t, p.Step(legal[r.IntN(len(legal))]))
			}
		}
	}
	require.Greater(t, refused, checked/20, "the walk refuses some tokens")
}

package countdown

import "fmt"

// MaxNumbers is the most numbers a pool holds.
const MaxNumbers = 4

// MaxMoves is the most move tokens a pool has (Moves(MaxNumbers)).
const MaxMoves = MaxNumbers*(MaxNumbers-1)/2*int(NumOps) + 1

// Pairs is how many pairs of slots a pool of n numbers has.
func Pairs(n int) int { return n * (n - 1) / 2 }

// Moves is how many move tokens a pool of n numbers has: a combination per
// pair and operation, then UNDO (token Moves(n)−1).
func Moves(n int) int { return Pairs(n)*int(NumOps) + 1 }

// Undo is the UNDO token of a pool of n numbers.
func Undo(n int) int32 { return int32(Pairs(n) * int(NumOps)) }

// Move is a combination: slots I < J and an operation.
type Move struct {
	I, J int8
	Op   Op
}

// pairSlots lists the pairs of each pool size in token order: (0,1), (0,2),
// …, (1,2), ….
var pairSlots = func() (out [MaxNumbers + 1][][2]int8) {
	for n := range out {
		for i := 0; i < n; i++ {
			for j := i + 1; j < n; j++ {
				out[n] = append(out[n], [2]int8{int8(i), int8(j)})
			}
		}
	}
	return out
}()

// MoveOf is the combination of token tok in a pool of n numbers, and false
// for UNDO or a token outside the pool's moves.
func MoveOf(n int, tok int32) (Move, bool) {
	if tok < 0 || tok >= Undo(n) {
		return Move{}, false
	}
	p := pairSlots[n][tok/int32(NumOps)]
	return Move{p[0], p[1], Op(tok % int32(NumOps))}, true
}

// Token is m's token in a pool of n numbers (MoveOf's inverse).
func Token(n int, m Move) int32 {
	for p, s := range pairSlots[n] {
		if s[0] == m.I && s[1] == m.J {
			return int32(p)*int32(NumOps) + int32(m.Op)
		}
	}
	return -1
}

// TokenName spells a token of a pool of n numbers: "s0+s1", "s2-s0"
// (b−a reads the higher slot first), "UNDO".
func TokenName(n int, tok int32) string {
	if tok == Undo(n) {
		return "UNDO"
	}
	m, ok := MoveOf(n, tok)
	if !ok {
		return "[?]"
	}
	a, b := m.I, m.J
	if m.Op.Swapped() {
		a, b = b, a
	}
	return fmt.Sprintf("s%d%ss%d", a, opSymbols[m.Op], b)
}

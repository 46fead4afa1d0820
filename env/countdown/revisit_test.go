package countdown

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

// state spells p's multiset of values, sorted: the no-revisit rule's state,
// computed without its keys.
func state(p *Pool) string {
	var vs []Value
	for i := 0; i < p.n; i++ {
		if p.live[i] {
			vs = append(vs, p.val[i])
		}
	}
	slices.SortFunc(vs, func(a, b Value) int { return a.Cmp(b) })
	s := ""
	for _, v := range vs {
		s += v.String() + " "
	}
	return s
}

// keyOf is the key of p's state, computed afresh.
func keyOf(p *Pool) stateKey {
	var k stateKey
	for i := 0; i < p.n; i++ {
		if p.live[i] {
			k = k.plus(p.val[i])
		}
	}
	return k
}

// A transposition is refused: a+b then c+d reaches the state c+d then a+b
// would, and the same values in other slots are one state; UNDO stays
// legal; Reset turns the rule off.
func TestNoRevisitHandCase(t *testing.T) {
	p := pool(Integers, 100, 1, 2, 3, 4)
	p.ForbidRevisits(16)
	require.True(t, p.NoRevisit())
	s01 := Token(4, Move{0, 1, Add})
	s23 := Token(4, Move{2, 3, Add})
	for _, tok := range []int32{s01, s23, Undo(4), Undo(4), s23} {
		require.True(t, p.Step(tok), "%s at %s", TokenName(4, tok), p)
	}
	require.Equal(t, "[1 2 7 _] → 100", p.String())
	require.False(t, p.Allows(s01), "s0+s1 now reaches {3, 7}, reached before")
	var legal [MaxMoves]bool
	p.Legal(legal[:Moves(4)])
	require.False(t, legal[s01])
	require.True(t, legal[Undo(4)])
	require.False(t, p.Step(s01), "refused")
	require.Equal(t, "[1 2 7 _] → 100", p.String(), "a refused token changes nothing")
	// {1, 2, 7} → 1·2 makes {2, 7}: new; then from the start 1+2 is {3, 3, 4}, reached.
	require.True(t, p.Step(Token(4, Move{0, 1, Mul})))
	require.True(t, p.Step(Undo(4)))
	require.True(t, p.Step(Undo(4)))
	require.False(t, p.Allows(s01))
	// The same values in other slots: [1 2 2 1] by s0+s1 is [3 _ 2 1], by s2+s3 [1 2 3 _]: both {1, 2, 3}.
	q := pool(Integers, 100, 1, 2, 2, 1)
	q.ForbidRevisits(16)
	require.True(t, q.Step(s01))
	require.True(t, q.Step(Undo(4)))
	require.False(t, q.Allows(s23))
	require.True(t, q.Allows(Token(4, Move{0, 1, Mul})), "1·2 makes {2, 2, 1}: new")
	p.Reset(Integers, []int64{1, 2, 3, 4}, Int(100))
	require.False(t, p.NoRevisit())
	require.True(t, p.Allows(s01), "Reset turns the rule off")
}

// On random walks of legal tokens under both rules: Legal says what
// Allows says, a token Legal refuses is refused by Step and changes
// nothing, no combination ever enters a state the walk has been in (by
// the states' spelling, not their keys), and the key kept through moves
// and UNDOs is the key of the state.
func TestNoRevisitRandomWalks(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var dst [MaxMoves]bool
	refusedRevisits := 0
	walks := 1500
	if testing.Short() { // under qemu in CI: a third
		walks = 500
	}
	for _, rules := range []Rules{Integers, Fractions} {
		for range walks {
			n := 2 + r.IntN(MaxNumbers-1)
			numbers := make([]int64, n)
			for i := range numbers {
				numbers[i] = int64(r.IntN(6))
			}
			var p Pool
			p.Reset(rules, numbers, Int(int64(r.IntN(30))))
			p.ForbidRevisits(8)
			seen := map[string]bool{state(&p): true}
			for range 60 {
				p.Legal(dst[:])
				var legal []int32
				for tok := range int32(Moves(n)) {
					if want := p.Allows(tok); dst[tok] != want {
						t.Fatalf("%v, token %s: Legal says %v, Allows %v", p.String(), TokenName(n, tok), dst[tok], want)
					}
					if dst[tok] {
						legal = append(legal, tok)
						continue
					}
					if p.Step(tok) {
						t.Fatalf("%s (after it): %s was stepped though illegal", p.String(), TokenName(n, tok))
					}
					if m, ok := MoveOf(n, tok); ok {
						if _, allowed := p.Result(m); allowed {
							refusedRevisits++
						}
					}
				}
				if len(legal) == 0 {
					require.True(t, p.Stuck(), "%s: no legal token, so stuck", p.String())
					break
				}
				if p.Stuck() {
					t.Fatalf("%s: stuck with legal tokens", p.String())
				}
				tok := legal[r.IntN(len(legal))]
				if !p.Step(tok) {
					t.Fatalf("%s: the legal %s refused", p.String(), TokenName(n, tok))
				}
				if tok != Undo(n) {
					st := state(&p)
					if seen[st] {
						t.Fatalf("%s entered twice", st)
					}
					seen[st] = true
				}
				if p.key != keyOf(&p) {
					t.Fatalf("%s: the kept key is not the state's", p.String())
				}
			}
		}
	}
	require.Greater(t, refusedRevisits, walks, "the walks meet revisits")
}

// Once every state one move from the start has been reached and left, the
// start has no legal token: Stuck (and only then, or with nothing to
// combine).
func TestNoRevisitStuck(t *testing.T) {
	p := pool(Integers, 100, 2, 3) // 2+3, 3−2, 2·3: the three legal moves
	p.ForbidRevisits(8)
	for _, op := range []Op{Add, RSub, Mul} {
		require.False(t, p.Stuck())
		require.True(t, p.Apply(Move{0, 1, op}), "%v", op)
		require.False(t, p.Stuck(), "UNDO is legal")
		require.True(t, p.Undo())
	}
	require.True(t, p.Stuck())
	var legal [MaxMoves]bool
	p.Legal(legal[:Moves(2)])
	require.NotContains(t, legal[:Moves(2)], true)
	require.False(t, pool(Integers, 100, 2, 3).Stuck(), "without the rule")
}

// The DFS under the rule skips transpositions: it solves exactly what the
// plain DFS solves, never in more steps, and in fewer on some pools; its
// set grows past the room it was given.
func TestDFSNoRevisit(t *testing.T) {
	key := rng.NewKey(12)
	fewer := 0
	for e := uint32(0); e < 300; e++ {
		in := Instance{N: 4, Target: MinTarget + int64(e%91)}
		w := key.Block(0, e, 0, rng.PurposeTask)
		for k := range 4 {
			in.Numbers[k] = 1 + int64(rng.Below(w[k], 20))
		}
		var p, q Pool
		in.Pool(&p)
		in.Pool(&q)
		q.ForbidRevisits(4)
		ok, steps := DFS(&p, 1<<20)
		okq, stepsq := DFS(&q, 1<<20)
		require.Equal(t, ok, okq, "%v", in)
		require.Equal(t, in.Solvable(), okq, "%v", in)
		require.LessOrEqual(t, stepsq, steps, "%v", in)
		if stepsq < steps {
			fewer++
		}
	}
	require.Greater(t, fewer, 100)
}

// A pool reused episode after episode allocates only its first set.
func TestNoRevisitNoAllocations(t *testing.T) {
	var p Pool
	p.Reset(Integers, []int64{3, 7, 9, 20}, Int(50))
	p.ForbidRevisits(128)
	allocs := testing.AllocsPerRun(20, func() {
		p.Reset(Integers, []int64{3, 7, 9, 20}, Int(50))
		p.ForbidRevisits(128)
		DFS(&p, 128)
	})
	require.Zero(t, allocs)
}

// TestRevisitBytesBoundsTheSet: RevisitBytes(moves) is what the set holds
// right after ForbidRevisits(moves), and still bounds it after a walk of
// moves random legal tokens, for budgets small and large (the engines'
// memory estimates count it per game).
func TestRevisitBytesBoundsTheSet(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var dst [MaxMoves]bool
	held := func(p *Pool) int {
		return int(unsafe.Sizeof(visited{})) + cap(p.seen.slots)*int(unsafe.Sizeof(stateKey{}))
	}
	for _, moves := range []int{0, 1, 7, 8, 64, 255, 256} {
		for range 20 {
			p := pool(Fractions, 24, 1+r.Int64N(13), 1+r.Int64N(13), 1+r.Int64N(13), 1+r.Int64N(13))
			p.ForbidRevisits(moves)
			require.Equal(t, RevisitBytes(moves), held(p), "moves %d: right after ForbidRevisits", moves)
			for range moves {
				p.Legal(dst[:])
				var legal []int32
				for tok := range int32(Moves(4)) {
					if dst[tok] {
						legal = append(legal, tok)
					}
				}
				if len(legal) == 0 {
					break
				}
				require.True(t, p.Step(legal[r.IntN(len(legal))]))
			}
			require.LessOrEqual(t, held(p), RevisitBytes(moves), "moves %d: after the walk", moves)
		}
	}
}

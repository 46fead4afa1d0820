package countdown

import (
	"testing"

	"github.com/simdrl/simdrl/rng"
	"github.com/stretchr/testify/require"
)

func pool(rules Rules, target int64, numbers ...int64) *Pool {
	var p Pool
	p.Reset(rules, numbers, Int(target))
	return &p
}

// The solver on hand cases: every number used once, non-negative integer
// intermediates, exact division.
func TestSolverHandCases(t *testing.T) {
	for _, c := range []struct {
		numbers []int64
		target  int64
		want    bool
	}{
		{[]int64{3, 4, 5}, 27, true},         // (4+5)·3
		{[]int64{25, 50, 75}, 100, true},     // 75+50−25
		{[]int64{7, 2, 1}, 3, true},          // (7−1)÷2, exact
		{[]int64{1, 1, 1}, 10, false},        // at most 3
		{[]int64{2, 3}, 5, true},             // 2+3
		{[]int64{2, 3}, 6, true},             // 2·3
		{[]int64{9, 3}, 3, true},             // 9÷3
		{[]int64{9, 3}, 1, false},            // 3÷9 is no integer
		{[]int64{7, 2}, 5, true},             // 7−2
		{[]int64{50, 7, 7}, 57, false},       // 50+7 leaves a 7 unused: every number must be used
		{[]int64{10, 20, 30, 40}, 100, true}, // the sum
		{[]int64{1, 2, 3, 4}, 100, false},
	} {
		p := pool(Integers, c.target, c.numbers...)
		var sol [MaxNumbers]Move
		k := Solve(p, Restrict{}, sol[:])
		require.Equal(t, c.want, k >= 0, "%v → %d", c.numbers, c.target)
		require.Equal(t, len(c.numbers), p.Left(), "the solver leaves the pool as it was")
		if k >= 0 { // the solution replays to the target
			require.Equal(t, len(c.numbers)-1, k)
			for _, m := range sol[:k] {
				require.True(t, p.Apply(m))
			}
			require.True(t, p.Solved())
		}
	}
	// Fractions: 8 ÷ (3 − 8÷3) = 24 needs them; integers cannot.
	require.True(t, Solvable(pool(Fractions, 24, 3, 3, 8, 8), Restrict{}))
	require.False(t, Solvable(pool(Fractions, 24, 3, 3, 8, 8), Restrict{WholeOnly: true}))
	require.False(t, Solvable(pool(Integers, 24, 3, 3, 8, 8), Restrict{}))
	// + and − alone: 75+50−25 = 100, but 4·5+3 needs a product.
	require.True(t, Solvable(pool(Integers, 100, 25, 50, 75), Restrict{NoMulDiv: true}))
	require.False(t, Solvable(pool(Integers, 23, 3, 4, 5), Restrict{NoMulDiv: true}))
	require.True(t, Solvable(pool(Integers, 23, 3, 4, 5), Restrict{}))
}

// The legal moves of a pool, token by token, and that Step agrees with
// them.
func TestLegalMoves(t *testing.T) {
	p := pool(Integers, 3, 7, 2, 1)
	legal := make([]bool, Moves(3))
	p.Legal(legal)
	//                 a+b   a−b   b−a    a·b   a÷b    b÷a
	want := []bool{true, true, false, true, false, false, // 7, 2
		true, true, false, true, true, false, // 7, 1
		true, true, false, true, true, false, // 2, 1
		false} // UNDO: nothing to undo
	require.Equal(t, want, legal)
	require.Equal(t, "s0+s1", TokenName(3, 0))
	require.Equal(t, "s1-s0", TokenName(3, 2))
	require.Equal(t, "s2/s1", TokenName(3, 17))
	require.Equal(t, "UNDO", TokenName(3, 18))

	require.True(t, p.Step(0)) // 7+2 into slot 0, slot 1 empty
	require.Equal(t, "[9 _ 1] → 3", p.String())
	p.Legal(legal)
	want = []bool{false, false, false, false, false, false,
		true, true, false, true, true, false,
		false, false, false, false, false, false,
		true}
	require.Equal(t, want, legal)
	require.True(t, p.Step(Undo(3)))
	require.Equal(t, "[7 2 1] → 3", p.String())
	require.False(t, p.Step(4), "7÷2 is refused")
	require.Equal(t, "[7 2 1] → 3", p.String(), "a refused token changes nothing")

	// On random walks, Legal says what Step accepts, and a refused token
	// leaves the pool unchanged.
	key := rng.NewKey(3)
	for e := uint32(0); e < 200; e++ {
		in := Draw(4, key, 0, e, rng.PurposeTask, false)
		var q Pool
		in.Pool(&q)
		l := make([]bool, Moves(4))
		for k := uint32(0); k < 12; k++ {
			q.Legal(l)
			for tok := range int32(Moves(4)) {
				c := q
				require.Equal(t, l[tok], c.Step(tok))
				if !l[tok] {
					require.Equal(t, q, c)
				}
			}
			q.Step(int32(rng.Below(key.Block(1, e, k, rng.PurposeAction)[0], uint32(Moves(4)))))
		}
	}
}

// Draws are reproducible, solvable and in their split; the held-out
// targets are 10% of the range and never in training.
func TestDrawSplit(t *testing.T) {
	held := 0
	for v := int64(MinTarget); v <= MaxTarget; v++ {
		if NewTarget(v) {
			held++
		}
	}
	require.Equal(t, 9, held)
	key := rng.NewKey(7)
	for _, n := range []int{3, 4} {
		seen := map[[2]uint64]bool{}
		for e := uint32(0); e < 300; e++ {
			for _, h := range []bool{false, true} {
				in := Draw(n, key, 2, e, rng.PurposeTask, h)
				require.Equal(t, in, Draw(n, key, 2, e, rng.PurposeTask, h))
				require.True(t, in.Solvable())
				require.Equal(t, h, in.HeldOut())
				if !h {
					require.False(t, NewTarget(in.Target))
				}
				for k := range n {
					require.True(t, in.Numbers[k] >= MinNumber && in.Numbers[k] <= MaxNumber)
				}
				require.True(t, in.Target >= MinTarget && in.Target <= MaxTarget)
				id := [2]uint64{in.key(), 0}
				if h {
					id[1] = 1
				}
				seen[id] = true
				other := id
				other[1] ^= 1
				require.False(t, seen[other], "%v in both splits", in)
			}
		}
	}
}

// DFS with an endless budget is the brute-force solver: it solves exactly
// the solvable pools, each within the tree's size, and leaves an unsolved
// one as it was; a smaller budget solves a subset.
func TestDFS(t *testing.T) {
	key := rng.NewKey(11)
	for e := uint32(0); e < 300; e++ {
		in := Instance{N: 3, Target: MinTarget + int64(e%91)}
		w := key.Block(0, e, 0, rng.PurposeTask)
		for k := range 3 {
			in.Numbers[k] = 1 + int64(rng.Below(w[k], 20))
		}
		var p Pool
		in.Pool(&p)
		ok, steps := DFS(&p, 1<<20)
		require.Equal(t, in.Solvable(), ok, "%v", in)
		if !ok {
			require.Equal(t, 3, p.Left())
			in.Pool(&p)
			require.Equal(t, in.Numbers[:3], []int64{p.val[0].N, p.val[1].N, p.val[2].N})
		} else {
			require.True(t, p.Solved())
			in.Pool(&p)
			short, _ := DFS(&p, steps-1)
			require.False(t, short, "DFS solved %v in fewer steps than it took", in)
		}
	}
	// The first move solves [2 3] → 5 in one step.
	ok, steps := DFS(pool(Integers, 5, 2, 3), 1)
	require.True(t, ok)
	require.Equal(t, 1, steps)
}

// The random baselines are reproducible by their stream and solve only
// what can be solved.
func TestRandomBaselines(t *testing.T) {
	key := rng.NewKey(5)
	chooser := func(e uint32) Chooser {
		return func(k uint32, n int) int { return int(rng.Below(key.Block(9, e, k, rng.PurposeAction)[0], uint32(n))) }
	}
	wins := 0
	for e := uint32(0); e < 200; e++ {
		in := Draw(3, key, 0, e, rng.PurposeTask, true)
		var p, q Pool
		in.Pool(&p)
		in.Pool(&q)
		a, b := RandomLegal(&p, 64, chooser(e)), RandomLegal(&q, 64, chooser(e))
		require.Equal(t, a, b)
		require.Equal(t, a, p.Solved())
		in.Pool(&p)
		prog := RandomProgram(&p, chooser(e))
		require.Equal(t, 3, p.Left(), "the program is taken back")
		if prog {
			wins++
		}
		require.Equal(t, prog, RandomProgram(&p, chooser(e)))
	}
	require.Greater(t, wins, 0)
	require.Less(t, wins, 200)
	require.False(t, RandomProgram(pool(Integers, 10, 1, 1, 1), chooser(0)))
}

// The compact searches agree with the pool's, under both rules, with and
// without × and ÷ and fractions, on small numbers (where zeros, ties and
// exact divisions abound) and on Countdown's.
func TestSolvableNumbers(t *testing.T) {
	key := rng.NewKey(13)
	for e := uint32(0); e < 3000; e++ {
		w := key.Block(0, e, 0, rng.PurposeTask)
		n := 1 + int(e%4)
		hi := uint32(10)
		if e%2 == 1 {
			hi = 99
		}
		nums := make([]int64, n)
		for k := range n {
			nums[k] = 1 + int64(rng.Below(key.Block(1, e, uint32(k), rng.PurposeTask)[0], hi))
		}
		target := int64(rng.Below(w[3], 4*hi))
		for _, rules := range []Rules{Integers, Fractions} {
			for _, r := range []Restrict{{}, {NoMulDiv: true}, {WholeOnly: true}} {
				if rules == Integers && r.WholeOnly {
					continue // Countdown's values are whole already
				}
				var p Pool
				p.Reset(rules, nums, Int(target))
				require.Equal(t, Solvable(&p, r), SolvableNumbers(rules, nums, target, r), "%v → %d %v %+v", nums, target, rules, r)
			}
		}
	}
}

func BenchmarkSolvable(b *testing.B) {
	nums := []int64{1, 1, 1, 1} // unsolvable: the whole tree
	for _, rules := range []Rules{Integers, Fractions} {
		name := [...]string{Integers: "integers", Fractions: "fractions"}[rules]
		b.Run(name+"/pool", func(b *testing.B) {
			for range b.N {
				Solvable(pool(rules, 24, nums...), Restrict{})
			}
		})
		b.Run(name+"/numbers", func(b *testing.B) {
			for range b.N {
				SolvableNumbers(rules, nums, 24, Restrict{})
			}
		})
	}
}

func BenchmarkDraw4(b *testing.B) {
	key := rng.NewKey(1)
	for i := 0; i < b.N; i++ {
		Draw(4, key, 0, uint32(i), rng.PurposeTask, false)
	}
}

package tape

import (
	"slices"
	"testing"

	"github.com/simdrl/simdrl/env/internal/holdout"
	"github.com/stretchr/testify/require"
)

// catalan is the number of binary trees with n+1 leaves.
func catalan(n int) int {
	c := 1
	for k := 0; k < n; k++ {
		c = c * 2 * (2*k + 1) / (k + 2)
	}
	return c
}

// The listed sizes hold every tree once: Catalan(n−1)·3^(n−1) members,
// their spellings distinct (the spelling keeps every parenthesis the tree
// needs, so two trees never spell alike).
func TestListedCounts(t *testing.T) {
	pow3 := 1
	for n := 2; n <= ListedLeaves; n++ {
		pow3 *= 3
		ms := Listed(n)
		require.Len(t, ms, catalan(n-1)*pow3, "size %d", n)
		seen := map[string]bool{}
		for _, m := range ms {
			require.False(t, seen[m.Spelling], "%s twice", m.Spelling)
			seen[m.Spelling] = true
			require.Equal(t, n, m.Leaves)
		}
	}
}

// Every size's family is deterministic (the same members in the same
// order), DrawnMembers distinct ones beyond the listed sizes, each a
// well-formed tape within the machine's bounds; sizes outside 2..MaxLeaves
// are refused.
func TestFamilyDeterministicAndBounded(t *testing.T) {
	for n := 2; n <= MaxLeaves; n++ {
		a, err := Family(n)
		require.NoError(t, err)
		b, _ := Family(n)
		require.Equal(t, a, b, "size %d", n)
		if n > ListedLeaves {
			require.Len(t, a, DrawnMembers)
		}
		seen := map[string]bool{}
		for _, m := range a {
			require.False(t, seen[m.Spelling])
			seen[m.Spelling] = true
			require.LessOrEqual(t, len(m.Cells), 4*n-5, "%s", m.Spelling)
			require.Equal(t, n, m.Leaves)
		}
	}
	for _, n := range []int{-1, 0, 1, MaxLeaves + 1} {
		_, err := Family(n)
		require.Error(t, err)
	}
	require.Equal(t, Drawn(12, 7), Drawn(12, 7))
	require.NotEqual(t, Drawn(12, 7).Spelling, Drawn(12, 8).Spelling)
}

// Spelling: × binds tighter, operators associate to the left, and only the
// parentheses the tree needs are written.
func TestSpelling(t *testing.T) {
	spellings := map[string]bool{}
	for _, m := range Listed(3) {
		spellings[m.Spelling] = true
	}
	for _, s := range []string{"x+x+x", "x+(x+x)", "x-(x-x)", "x*(x+x)", "(x+x)*x", "x+x*x", "x*x+x", "x*(x*x)"} {
		require.True(t, spellings[s], s)
	}
	require.False(t, spellings["(x+x)+x"])
	require.False(t, spellings["x+(x*x)"])
}

// The split: a fifth of a trained size held out by hash, the same every
// time and independent of the other sizes; a size not trained is transfer
// whole.
func TestParts(t *testing.T) {
	for _, n := range []int{2, 3, 5, 6} {
		ms, _ := Family(n)
		parts := Parts(ms, true)
		require.Equal(t, parts, Parts(ms, true))
		held := 0
		for _, p := range parts {
			require.NotEqual(t, PartTransfer, p)
			if p == PartHeldOut {
				held++
			}
		}
		require.Equal(t, holdout.Count(len(ms)), held, "size %d", n)
		require.Greater(t, held, 0)
		require.Greater(t, len(ms)-held, 1)
		for _, p := range Parts(ms, false) {
			require.Equal(t, PartTransfer, p)
		}
	}
}

// The package doc's argument: the fixed shunting-yard table (observation → tool)
// solves every member of every size 2..MaxLeaves on any operands, in
// Shortest steps, applying every operator to its own subtrees. Its answers
// are checked against the members' trees (Eval), not against the machine.
func TestShuntingYardSolvesEverySize(t *testing.T) {
	r := splitMix{state: 1}
	var d [MaxLeaves]int32
	var tape [MaxCells]Cell
	for n := 2; n <= MaxLeaves; n++ {
		ms, err := Family(n)
		require.NoError(t, err)
		for i := range ms {
			m := &ms[i]
			for k := range d {
				d[k] = int32(r.below(10))
			}
			var e Episode
			e.Reset(m.Tape(d[:], tape[:]), m.Eval(d[:]), m.Shortest(), 0.3)
			steps := 0
			for !e.Done() {
				e.Step(ShuntingYard(e.Observe()))
				steps++
			}
			require.True(t, e.Correct(), "size %d: %s on %v", n, m.Spelling, d[:n])
			require.Equal(t, m.Shortest(), steps)
			require.Equal(t, n-1, e.Machine().Applied)
			require.InDelta(t, 1.3, e.Reward(), 1e-12)
		}
	}
}

// Without its table's one decision, comparing precedences, the same rule
// fails: always applying before pushing an operator (reading left to right
// as a calculator without precedence does) misses x+x*x.
func TestShuntingYardNeedsPrecedence(t *testing.T) {
	ms := Listed(3)
	d := []int32{1, 2, 3}
	var tape [MaxCells]Cell
	failed := 0
	for i := range ms {
		m := &ms[i]
		var e Episode
		e.Reset(m.Tape(d, tape[:]), m.Eval(d), m.Shortest(), 0)
		for !e.Done() {
			obs := e.Observe()
			tool := ShuntingYard(obs)
			if head, top := obs/topKinds, obs%topKinds; head >= 1 && head <= 3 && top >= 1 && top <= 3 {
				tool = APPLY
			}
			e.Step(tool)
		}
		if !e.Correct() {
			failed++
		}
	}
	require.Greater(t, failed, 0)
}

// The branching family: 10, 200 and 5,000 members listed at 2, 3 and 4
// leaves (Catalan(n−1)·10^(n−1), every spelling distinct), drawn ones of
// the size asked, and spellings as the grammar says.
func TestBranchingFamily(t *testing.T) {
	for n := 2; n <= BranchingListedLeaves; n++ {
		ms, err := FamilyOf(n, true)
		require.NoError(t, err)
		want := catalan(n - 1)
		for range n - 1 {
			want *= 10
		}
		require.Len(t, ms, want)
		seen := map[string]bool{}
		for _, m := range ms {
			require.False(t, seen[m.Spelling], m.Spelling)
			seen[m.Spelling] = true
		}
	}
	require.Equal(t, []string{"x+x", "abs(x+x)", "x-x", "abs(x-x)", "x*x", "abs(x*x)", "max(x,x)", "abs(max(x,x))", "min(x,x)", "abs(min(x,x))"},
		spellings(ListedBranching(2)))
	for _, n := range []int{5, 8, 32} {
		ms, err := FamilyOf(n, true)
		require.NoError(t, err)
		require.Len(t, ms, DrawnMembers)
		functions := 0
		for _, m := range ms {
			require.Equal(t, n, m.Leaves)
			require.LessOrEqual(t, len(m.Cells), MaxCells)
			for _, c := range m.Cells {
				if c.IsFunction() {
					functions++
				}
			}
		}
		require.Positive(t, functions)
	}
	plain, err := FamilyOf(8, false)
	require.NoError(t, err)
	again, err := Family(8)
	require.NoError(t, err)
	require.Equal(t, spellings(again), spellings(plain))
	_, err = FamilyOf(33, true)
	require.Error(t, err)
}

func spellings(ms []Member) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Spelling)
	}
	return out
}

// The branching table (ShuntingYardBranching) solves every branching
// member of every size 2..MaxLeaves, on uniform digits and on digits of
// only 0 and 1 (ties, zeros, negative differences), in Shortest steps,
// applying every operator and resolving every function correctly; answers
// are checked against the members' trees (Eval), not the machine. Half the
// wrong branches (a policy that always keeps) fail.
func TestShuntingYardBranchingSolvesEverySize(t *testing.T) {
	r := splitMix{state: 2}
	var d [MaxLeaves]int32
	var tape [MaxCells]Cell
	keepFails, functions := 0, 0
	for n := 2; n <= MaxLeaves; n++ {
		ms, err := FamilyOf(n, true)
		require.NoError(t, err)
		for i := range ms {
			m := &ms[i]
			for _, base := range []uint64{10, 2} {
				for k := range d {
					d[k] = int32(r.below(base))
				}
				tp := m.Tape(d[:], tape[:])
				nodes := 0
				for _, c := range tp {
					if c.IsOperator() || c.IsFunction() {
						nodes++
					}
				}
				var e Episode
				e.SetVariant(Variant{Branching: true})
				e.Reset(tp, m.Eval(d[:]), m.Shortest(), 0.3)
				steps := 0
				for !e.Done() {
					e.Step(ShuntingYardBranching(e.Observe()))
					steps++
				}
				require.True(t, e.Correct(), "size %d: %s on %v", n, m.Spelling, d[:n])
				require.Equal(t, m.Shortest(), steps, m.Spelling)
				require.Equal(t, nodes, e.Machine().Applied, m.Spelling)
				require.InDelta(t, 1.3, e.Reward(), 1e-12)
				if n <= 6 && nodes > n-1 {
					functions++
					var k Episode
					k.SetVariant(Variant{Branching: true})
					k.Reset(tp, m.Eval(d[:]), 3*m.Shortest(), 0)
					for !k.Done() {
						tool := ShuntingYardBranching(k.Observe())
						if tool == OTHER {
							tool = KEEP
						}
						k.Step(tool)
					}
					if !k.Correct() {
						keepFails++
					}
				}
			}
		}
	}
	require.Greater(t, keepFails, functions/10, "the comparison matters")
}

// The held-out members are the shared rule's (holdout.Lowest) of the
// members' spellings, as the expr family's are of its polynomials.
func TestPartsHoldOutBySharedRule(t *testing.T) {
	for _, branching := range []bool{false, true} {
		for _, n := range []int{3, 5, ListedLeaves + 1} {
			ms, err := FamilyOf(n, branching)
			require.NoError(t, err)
			var spellings []string
			var held []int
			for i, p := range Parts(ms, true) {
				spellings = append(spellings, ms[i].Spelling)
				if p == PartHeldOut {
					held = append(held, i)
				}
			}
			want := slices.Clone(holdout.Lowest(spellings))
			slices.Sort(want)
			require.Equal(t, want, held, "size %d, branching %v", n, branching)
		}
	}
}

package expr

import (
	"testing"
	"time"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/stretchr/testify/require"
)

// pinned are, per size n = 2..7, the distinct polynomials and the members
// (those a program of at most 16 tokens computes), with the members'
// shortest lengths: what the generated table must say (the first five rows
// are also what a PyTorch probe counted).
var pinned = []struct{ distinct, members, lo, hi int }{
	{3, 3, 3, 3}, {13, 11, 4, 6}, {69, 45, 5, 7}, {409, 193, 6, 10}, {2595, 843, 7, 11}, {17241, 3707, 8, 14},
}

func TestSizesArePinned(t *testing.T) {
	sizes := Sizes()
	require.Len(t, sizes, MaxLeaves-1)
	for i, s := range sizes {
		p := pinned[i]
		require.Equal(t, i+2, s.Leaves)
		require.Equal(t, []int{p.distinct, p.members, p.lo, p.hi}, []int{s.Distinct, s.Members, s.Shortest[0], s.Shortest[1]}, "%d leaves", s.Leaves)
		require.Len(t, Family(s.Leaves), s.Members)
	}
}

// TestFamilyLoads: the table parses into the family quickly (it is built
// on first use, not at package init).
func TestFamilyLoads(t *testing.T) {
	start := time.Now()
	total := 0
	for n := 2; n <= MaxLeaves; n++ {
		total += len(Family(n))
	}
	t.Logf("the family's %d members load in %v", total, time.Since(start))
	require.Equal(t, 4802, total)
	require.Nil(t, Family(1))
	require.Nil(t, Family(MaxLeaves+1))
	m := Family(2)[0]
	require.Equal(t, "a*b", m.Spelling)
	require.Equal(t, []int32{calc.LOAD, calc.MUL, calc.ANS}, m.Program)
	require.Equal(t, 5, m.Budget)
	require.Equal(t, []int32{FirstLeaf, Times, FirstLeaf + 1}, m.Shown)
}

// TestTableIsTheCandidates: every size's members are the candidates (the
// distinct polynomials with their representatives, recomputed here) in
// their order, those the table gives a program; each representative is
// spelled as its tree is.
func TestTableIsTheCandidates(t *testing.T) {
	for n := 2; n <= MaxLeaves; n++ {
		cands := Candidates(n)
		require.Len(t, cands, pinned[n-2].distinct)
		members := Family(n)
		j := 0
		for _, c := range cands {
			if j < len(members) && members[j].Spelling == c.Spelling {
				require.Equal(t, c.Poly, members[j].Poly)
				j++
			}
		}
		require.Equal(t, len(members), j, "%d leaves: the members are candidates, in order", n)
	}
}

// TestMembersProgramsAreExact: each member's program computes it, exactly
// (the symbolic machine), on every digit tuple up to 4 leaves
// (calc.Computes), and on the machine for a few tuples beyond; its budget
// is its length plus calc.BudgetSlack; its context fits task.MaxShown (24).
func TestMembersProgramsAreExact(t *testing.T) {
	for n := 2; n <= MaxLeaves; n++ {
		s := Sizes()[n-2]
		lo, hi := calc.MaxBudget, 0
		for _, m := range Family(n) {
			got, ok := RunSymbolic(m.Program, calc.Ops[:], n, calc.MaxBudget)
			require.True(t, ok, m.Spelling)
			require.Equal(t, m.Poly.Dense(), got, m.Spelling)
			require.Equal(t, min(m.Shortest()+calc.BudgetSlack, calc.MaxBudget), m.Budget)
			require.Equal(t, int32(calc.ANS), m.Program[len(m.Program)-1])
			require.LessOrEqual(t, len(m.Shown), 24, m.Spelling)
			require.Equal(t, n, m.Leaves)
			require.Equal(t, m.Tree.String(), m.Spelling)
			if n <= 4 {
				require.True(t, calc.Computes(m.Expr, m.Program), m.Spelling)
			} else {
				for i := range verifyProbes {
					d := verifyProbes[i]
					in := calc.Instance{Vars: int32(n), Budget: int32(m.Budget), Digits: d, Target: m.Expr.Eval(&d)}
					require.True(t, calc.Run(in, m.Program, 0).Correct, m.Spelling)
				}
			}
			kept, used := 0, 0 // doc.go: n+1 tokens plus one STO and one M±V per value kept in m
			for _, tok := range m.Program {
				switch tok {
				case calc.STO:
					kept++
				case calc.MADD, calc.MSUB:
					used++
				}
			}
			require.Equal(t, kept, used, m.Spelling)
			require.Equal(t, n+1+2*kept, m.Shortest(), m.Spelling)
			lo, hi = min(lo, m.Shortest()), max(hi, m.Shortest())
		}
		require.Equal(t, s.Shortest, [2]int{lo, hi})
	}
}

// verifyProbes are a few digit tuples for the machine.
var verifyProbes = [][calc.MaxVars]int32{
	{3, 1, 4, 1, 5, 9, 2, 6}, {9, 9, 9, 9, 9, 9, 9, 9}, {0, 7, 0, 7, 0, 7, 0, 7}, {8, 2, 6, 5, 3, 1, 7, 4},
}

// TestLongestContexts: the longest representative of each size, and of
// all the candidates of 7 leaves (21 tokens: the family fits
// task.MaxShown = 24).
func TestLongestContexts(t *testing.T) {
	want := []int{3, 7, 9, 13, 15, 19} // a*b, (a+b)*c, (a*b+c)*d, … (((a+b)*c+d)*e+f)*g
	for n := 2; n <= MaxLeaves; n++ {
		longest := 0
		for _, m := range Family(n) {
			longest = max(longest, len(m.Shown))
		}
		require.Equal(t, want[n-2], longest, "%d leaves", n)
	}
	longest := 0
	for _, c := range Candidates(7) {
		longest = max(longest, len(c.Spelling))
	}
	require.Equal(t, 21, longest)
}

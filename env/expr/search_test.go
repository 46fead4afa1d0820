package expr

import (
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/simdrl/simdrl/internal/testsize"
	"github.com/stretchr/testify/require"
)

func candidatePolys(n int) ([]Candidate, []Poly) {
	cands := Candidates(n)
	polys := make([]Poly, len(cands))
	for i, c := range cands {
		polys[i] = c.Poly
	}
	return cands, polys
}

// TestSearchRegeneratesTheTable: the search run here gives the table's
// programs, states and tail, up to 5 leaves (6 and 7 take 10 s and 35 s:
// "go generate ./env/expr" regenerates them, and CI checks the diff).
func TestSearchRegeneratesTheTable(t *testing.T) {
	top := 5
	if !testsize.Long() { // five leaves: a minute and more (CI's go generate step regenerates it too)
		top = 4
	}
	for n := 2; n <= top; n++ {
		cands, polys := candidatePolys(n)
		r, err := Search(n, polys, calc.MaxBudget)
		require.NoError(t, err)
		s := Sizes()[n-2]
		require.Equal(t, s.States, r.States)
		require.Equal(t, s.Tail, r.Tail)
		members := Family(n)
		j := 0
		for i, c := range cands {
			if j < len(members) && members[j].Spelling == c.Spelling {
				require.Equal(t, members[j].Program, r.Programs[i], c.Spelling)
				j++
			} else {
				require.Nil(t, r.Programs[i], c.Spelling)
			}
		}
	}
}

// TestSearchWithinFewerTokens: within 6 tokens the 4-leaf members whose
// shortest is 7 have no program, the others the same.
func TestSearchWithinFewerTokens(t *testing.T) {
	cands, polys := candidatePolys(4)
	r, err := Search(4, polys, 6)
	require.NoError(t, err)
	byText := map[string][]int32{}
	for _, m := range Family(4) {
		byText[m.Spelling] = m.Program
	}
	found := 0
	for i, c := range cands {
		want := byText[c.Spelling]
		if len(want) > 6 {
			want = nil
		}
		require.Equal(t, want, r.Programs[i], c.Spelling)
		if want != nil {
			found++
		}
	}
	require.Equal(t, 27, found)
}

func TestSearchRefuses(t *testing.T) {
	ab := leafPoly(0)
	_, err := Search(2, []Poly{combine(ab, leafPoly(1), 1), combine(leafPoly(1), ab, 1)}, 5)
	require.ErrorContains(t, err, "share a fingerprint")
	_, err = Search(MaxLeaves+1, nil, 5)
	require.ErrorContains(t, err, "leaves 1..7")
	_, err = Search(2, nil, calc.MaxBudget+1)
	require.ErrorContains(t, err, "tokens 1..16")
}

// cube is a machine state on every operand tuple of zeros and ones (the
// cube {0,1}^n, tuple mask: leaf k is bit k): the values there determine a
// multilinear polynomial, so two states are equal iff their polynomials
// are, with no fingerprint.
type cube struct {
	v, m [16]int64
	p    int32
}

// step applies tool tok to every tuple of the cube with calc's machine.
func (c cube) step(tok int32, n int) cube {
	var d [calc.MaxVars]int32
	for mask := 0; mask < 1<<n; mask++ {
		for k := 0; k < n; k++ {
			d[k] = int32(mask >> k & 1)
		}
		mc := calc.Machine{V: c.v[mask], M: c.m[mask], P: c.p}
		mc.Apply(calc.OpOf(tok), &d, int32(n))
		c.v[mask], c.m[mask] = mc.V, mc.M
		if mask == 1<<n-1 {
			c.p = mc.P
		}
	}
	return c
}

// cubeTargets maps each candidate's values on the cube to its index.
func cubeTargets(cands []Candidate, n int) map[[16]int64]int {
	out := map[[16]int64]int{}
	var d [calc.MaxVars]int32
	for i, c := range cands {
		var vals [16]int64
		e, err := calc.ParseExpr(c.Spelling)
		if err != nil {
			panic(err)
		}
		for mask := 0; mask < 1<<n; mask++ {
			for k := 0; k < n; k++ {
				d[k] = int32(mask >> k & 1)
			}
			vals[mask] = e.Eval(&d)
		}
		out[vals] = i
	}
	return out
}

// TestBruteForceUpToTheBudget: independently of the search (no
// fingerprints, no pruning, calc's own machine on the cube), every program
// of at most 9 tokens (the largest budget up to 4 leaves) is run; the
// shortest that computes each candidate is the table's length, and no
// candidate outside the family has one.
func TestBruteForceUpToTheBudget(t *testing.T) {
	const maxLen = 9
	for n := 2; n <= 4; n++ {
		cands := Candidates(n)
		targets := cubeTargets(cands, n)
		shortest := make([]int, len(cands))
		var visit func(c cube, depth int)
		visit = func(c cube, depth int) {
			if c.p == int32(n) {
				if i, ok := targets[c.v]; ok && (shortest[i] == 0 || depth+1 < shortest[i]) {
					shortest[i] = depth + 1
				}
			}
			if depth+1 == maxLen {
				return
			}
			for _, tok := range tools {
				visit(c.step(tok, n), depth+1)
			}
		}
		visit(cube{}, 0)
		want := map[string]int{}
		for _, m := range Family(n) {
			want[m.Spelling] = m.Shortest()
		}
		members := 0
		for i, c := range cands {
			require.Equal(t, want[c.Spelling], shortest[i], "%s", c.Spelling)
			if shortest[i] != 0 {
				members++
			}
		}
		require.Equal(t, pinned[n-2].members, members)
	}
}

// TestBruteForceWithinMaxBudget: up to 3 leaves, a breadth-first search on
// exact states (the cube's values) to calc.MaxBudget tokens, without the
// search's pruning: the members and their lengths are the table's, and the
// 2 candidates of 3 leaves outside it (a*(b+c), a*(b-c)) have no program.
func TestBruteForceWithinMaxBudget(t *testing.T) {
	for n := 2; n <= 3; n++ {
		cands := Candidates(n)
		targets := cubeTargets(cands, n)
		shortest := make([]int, len(cands))
		seen := map[cube]bool{{}: true}
		layer := []cube{{}}
		for depth := 1; depth < calc.MaxBudget; depth++ {
			var next []cube
			for _, c := range layer {
				for _, tok := range tools {
					ch := c.step(tok, n)
					if seen[ch] {
						continue
					}
					seen[ch] = true
					next = append(next, ch)
					if i, ok := targets[ch.v]; ok && ch.p == int32(n) && shortest[i] == 0 {
						shortest[i] = depth + 1
					}
				}
			}
			layer = next
		}
		want := map[string]int{}
		for _, m := range Family(n) {
			want[m.Spelling] = m.Shortest()
		}
		var outside []string
		for i, c := range cands {
			require.Equal(t, want[c.Spelling], shortest[i], c.Spelling)
			if shortest[i] == 0 {
				outside = append(outside, c.Spelling)
			}
		}
		if n == 3 {
			require.Equal(t, []string{"a*(b+c)", "a*(b-c)"}, outside)
		}
	}
}

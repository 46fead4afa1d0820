package expr

import (
	"cmp"
	"slices"
	"sync"

	"github.com/simdrl/simdrl/env/calc"
)

// Candidate is one distinct polynomial of n leaves and the tree that
// represents it: of all the trees with that polynomial, the one whose
// spelling (String) has the fewest tokens, then the lexicographically
// smallest spelling (ASCII: "(" < ")" < "*" < "+" < "-" < letters).
type Candidate struct {
	Tree     *Tree
	Spelling string
	Poly     Poly
}

// Candidates are the distinct polynomials of every tree of n leaves, each
// with its representative, in representative order: fewest tokens first,
// then by spelling. There are 3, 13, 69, 409, 2595 and 17 241 for n = 2..7.
func Candidates(n int) []Candidate {
	best := map[string]Candidate{}
	for _, t := range Trees(0, n) {
		c := Candidate{Tree: t, Spelling: t.String(), Poly: t.Poly()}
		key := c.Poly.String()
		if old, ok := best[key]; !ok || lessSpelling(c.Spelling, old.Spelling) {
			best[key] = c
		}
	}
	out := make([]Candidate, 0, len(best))
	for _, c := range best {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Candidate) int { return compareSpelling(a.Spelling, b.Spelling) })
	return out
}

// compareSpelling orders spellings by length (every character is one
// context token), then lexicographically.
func compareSpelling(a, b string) int {
	return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
}

func lessSpelling(a, b string) bool { return compareSpelling(a, b) < 0 }

// Member is one expression of the family: a distinct polynomial of n
// leaves that a program of at most calc.MaxBudget tokens computes, with its
// representative and a shortest program.
type Member struct {
	Leaves   int
	Spelling string     // the representative, minimal parentheses: the context shown
	Tree     *Tree      // the representative
	Poly     Poly       // its expanded polynomial: the member's identity
	Expr     *calc.Expr // the representative for calc: Eval, Inner, Subsets
	Shown    []int32    // Spelling as context tokens
	Program  []int32    // the first shortest program the search found, ANS included
	Budget   int        // len(Program) + calc.BudgetSlack, at most calc.MaxBudget
	Pattern  bool       // the representative holds a product subtracted from a sum (Tree.HasPattern)
}

// Shortest is the length of the member's shortest programs, ANS included.
func (m *Member) Shortest() int { return len(m.Program) }

// Family is every member of size n, in representative order (fewest
// tokens, then by spelling), from the generated table; nil outside
// 2..MaxLeaves. Shared and read-only.
func Family(n int) []Member {
	if n < 2 || n > MaxLeaves {
		return nil
	}
	return family()[n-2]
}

var family = sync.OnceValue(func() [MaxLeaves - 1][]Member {
	var f [MaxLeaves - 1][]Member
	for _, row := range memberTable {
		m, err := newMember(row.spelling, row.program)
		if err != nil {
			panic("expr: the generated table is broken: " + err.Error())
		}
		f[m.Leaves-2] = append(f[m.Leaves-2], m)
	}
	return f
})

// newMember is the member of a representative's spelling and its program.
func newMember(spelling, program string) (Member, error) {
	tree, err := ParseTree(spelling)
	if err != nil {
		return Member{}, err
	}
	e, err := calc.ParseExpr(spelling)
	if err != nil {
		return Member{}, err
	}
	prog, err := ParseProgram(program)
	if err != nil {
		return Member{}, err
	}
	return Member{Leaves: e.Vars(), Spelling: spelling, Tree: tree, Poly: tree.Poly(), Expr: e, Shown: ShownTokens(spelling),
		Program: prog, Budget: min(len(prog)+calc.BudgetSlack, calc.MaxBudget), Pattern: tree.HasPattern()}, nil
}

package expr

import (
	"testing"

	"github.com/simdrl/simdrl/env/calc"
	"github.com/stretchr/testify/require"
)

// TestSpellingHasMinimalParentheses: the spelling keeps exactly the
// parentheses the parser needs, and reads back as the tree.
func TestSpellingHasMinimalParentheses(t *testing.T) {
	for _, s := range []string{"a-(b-c)", "a-b-c", "a+(b+c)", "a*(b*c)", "a*b*c", "(a+b)*c", "a*(b-c)", "a+b*c", "a-b*c", "(a-b)*(c-d)", "a*b+c*d-e*f"} {
		tr, err := ParseTree(s)
		require.NoError(t, err, s)
		require.Equal(t, s, tr.String())
		e, err := calc.ParseExpr(s)
		require.NoError(t, err)
		require.Equal(t, s, e.Canonical(), "calc reads the same tree (its canonical form keeps the order of a, b, c, …)")
	}
	for s, want := range map[string]string{"(a-b)-c": "a-b-c", "((a))*b": "a*b", "(a*b)+(c*d)": "a*b+c*d"} {
		tr, err := ParseTree(s)
		require.NoError(t, err)
		require.Equal(t, want, tr.String())
	}
	for s, want := range map[string]string{"b+a": `expected 'a'`, "a+": "at the end", "(a+b": `missing ")"`, "a+b)": `unexpected ')'`, "a++b": `expected 'b'`} {
		_, err := ParseTree(s)
		require.ErrorContains(t, err, want, s)
	}
}

// TestTreesAndPolynomials: Catalan(n−1)·3^(n−1) trees; each spelling reads
// back; the polynomial is the expression's value (on calc's Eval).
func TestTreesAndPolynomials(t *testing.T) {
	counts := []int{3, 18, 135, 1134}
	for n := 2; n <= 5; n++ {
		trees := Trees(0, n)
		require.Len(t, trees, counts[n-2])
		for _, tr := range trees {
			back, err := ParseTree(tr.String())
			require.NoError(t, err)
			require.Equal(t, tr.String(), back.String())
			e, err := calc.ParseExpr(tr.String())
			require.NoError(t, err)
			d := [calc.MaxVars]int32{3, -1, 4, 1, -5, 9, 2}
			require.Equal(t, e.Eval(&d), evalPoly(tr.Poly(), d), tr.String())
		}
	}
}

func evalPoly(p Poly, d [calc.MaxVars]int32) int64 {
	sum := int64(0)
	for _, t := range p {
		x := t.Coef
		for k := 0; k < MaxLeaves; k++ {
			if t.Mono>>k&1 == 1 {
				x *= int64(d[k])
			}
		}
		sum += x
	}
	return sum
}

// TestRepresentatives: the representative of a polynomial is its shortest
// spelling, then the smallest; every tree polynomial has coefficients ±1.
func TestRepresentatives(t *testing.T) {
	reps := map[string]string{}
	for _, c := range Candidates(3) {
		reps[c.Poly.String()] = c.Spelling
		for _, term := range c.Poly {
			require.Contains(t, []int64{-1, 1}, term.Coef)
		}
	}
	for spelling, want := range map[string]string{"a+(b+c)": "a+b+c", "a-(b-c)": "a-b+c", "a*(b*c)": "a*b*c", "a-(b+c)": "a-b-c"} {
		tr, err := ParseTree(spelling)
		require.NoError(t, err)
		require.Equal(t, want, reps[tr.Poly().String()], spelling)
	}
	require.Len(t, reps, 13)
	require.Equal(t, "1*a*b+1*c", Poly{{Mono: 3, Coef: 1}, {Mono: 4, Coef: 1}}.String())
	require.Equal(t, "0", Poly(nil).String())
}

func TestPattern(t *testing.T) {
	for s, want := range map[string]bool{"a+b-c*d": true, "a*b+c-d*e": true, "a+b-c": false, "a-b*c": false, "a+b*c": false,
		"(a+b-c*d)*e": true, "a-(b+c)*d": false, "a*(b+c-d*e)": true} {
		tr, err := ParseTree(s)
		require.NoError(t, err)
		require.Equal(t, want, tr.HasPattern(), s)
	}
}

// TestRunSymbolicIsTheMachine: on random programs (context tokens, ANS
// and all), the symbolic machine's polynomial is calc's answer on every
// tuple tried, and it answers exactly when calc does.
func TestRunSymbolicIsTheMachine(t *testing.T) {
	ops := Ops()
	seed := uint64(1)
	next := func(n uint64) uint64 {
		seed = seed*6364136223846793005 + 1442695040888963407
		return (seed >> 33) % n
	}
	for i := 0; i < 3000; i++ {
		n := 2 + int(next(MaxLeaves-1))
		prog := make([]int32, 1+next(calc.MaxBudget+2))
		for j := range prog {
			prog[j] = int32(calc.LOAD + next(calc.ANS-calc.LOAD+1))
			if next(8) == 0 {
				prog[j] = int32(next(Vocab))
			}
		}
		budget := 1 + int(next(calc.MaxBudget))
		poly, ok := RunSymbolic(prog, ops, n, budget)
		for k := 0; k < 5; k++ {
			var d [calc.MaxVars]int32
			for j := 0; j < n; j++ {
				d[j] = int32(next(10))
			}
			o := calc.RunOps(calc.Instance{Vars: int32(n), Budget: int32(budget), Digits: d}, prog, 0, ops)
			require.Equal(t, o.Answered, ok, "%v", prog)
			if ok {
				want := int64(0)
				for mono, c := range poly {
					x := c
					for j := 0; j < n; j++ {
						if mono>>j&1 == 1 {
							x *= int64(d[j])
						}
					}
					want += x
				}
				require.Equal(t, want, o.Answer, "%v on %v", prog, d)
			}
		}
	}
}

package expr

import (
	"slices"
	"strconv"
	"strings"
)

// Poly is a polynomial over the leaves a, b, c, … as a sum of terms, each a
// coefficient times a monomial: a set of leaves (bit k for the k-th letter)
// with no leaf twice. Every value the family and the machine compute is such
// a multilinear polynomial: an expression uses each leaf once, and the
// machine reads each operand once and multiplies only by an operand not yet
// read. The terms are in ascending monomial order with no zero coefficient,
// so equal polynomials are equal slices.
type Poly []Term

// Term is a coefficient times a monomial.
type Term struct {
	Mono uint8 // bit k: leaf k (a = bit 0)
	Coef int64
}

// leafPoly is the polynomial of the leaf k.
func leafPoly(k int) Poly { return Poly{{Mono: 1 << k, Coef: 1}} }

// normalize sorts the terms, merges equal monomials and drops zeros.
func (p Poly) normalize() Poly {
	slices.SortFunc(p, func(x, y Term) int { return int(x.Mono) - int(y.Mono) })
	out := p[:0]
	for _, t := range p {
		if n := len(out); n > 0 && out[n-1].Mono == t.Mono {
			out[n-1].Coef += t.Coef
		} else {
			out = append(out, t)
		}
	}
	return slices.DeleteFunc(out, func(t Term) bool { return t.Coef == 0 })
}

// combine is a + sign·b.
func combine(a, b Poly, sign int64) Poly {
	out := make(Poly, 0, len(a)+len(b))
	out = append(out, a...)
	for _, t := range b {
		out = append(out, Term{t.Mono, sign * t.Coef})
	}
	return out.normalize()
}

// product is a·b for polynomials over disjoint leaves (an expression's two
// operands), so that the product stays multilinear.
func product(a, b Poly) Poly {
	out := make(Poly, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, Term{x.Mono | y.Mono, x.Coef * y.Coef})
		}
	}
	return out.normalize()
}

// String spells the polynomial canonically, its terms in monomial order
// ("1*a*b-1*c"; "0" for the zero polynomial): the identity that the family
// deduplicates by and the expressions split hashes.
func (p Poly) String() string {
	if len(p) == 0 {
		return "0"
	}
	var b strings.Builder
	for i, t := range p {
		if t.Coef < 0 {
			b.WriteByte('-')
		} else if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatInt(max(t.Coef, -t.Coef), 10))
		for k := 0; k < 8; k++ {
			if t.Mono>>k&1 == 1 {
				b.WriteByte('*')
				b.WriteByte(byte('a' + k))
			}
		}
	}
	return b.String()
}

// Dense is the polynomial as coefficients indexed by monomial, 2^MaxLeaves
// long: what the symbolic machine (RunSymbolic) computes in.
type Dense [1 << MaxLeaves]int64

// Dense returns p's coefficients by monomial.
func (p Poly) Dense() Dense {
	var d Dense
	for _, t := range p {
		d[t.Mono] = t.Coef
	}
	return d
}

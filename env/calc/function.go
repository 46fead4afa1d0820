package calc

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// The held-out split of a level is salted by the function it computes, not
// by its spelling: any two levels with the same value on every digit tuple
// (a*(b+c) and a*b+a*c, or a*b and b*a) hold out the same tuples, so no
// tuple that one level trains on is held out by another. Over + − × the
// function is exactly its expanded polynomial: monomials with integer
// coefficients, none zero, in a fixed order. Expanding is cheap and bounded:
// with MaxLeaves (16) leaves a product of sums has at most 4^4 = 256 terms.

// monomial is a product of variables: the exponent of each of a…h.
type monomial [MaxVars]uint8

// term is a coefficient times a monomial.
type term struct {
	mono monomial
	coef int64
}

// polynomial is a sum of terms with distinct monomials in ascending order and
// no zero coefficients (so equal functions have equal polynomials).
type polynomial []term

func comparePoly(a, b term) int { return slices.Compare(a.mono[:], b.mono[:]) }

// normalize sorts the terms, merges equal monomials and drops zeros.
func (p polynomial) normalize() polynomial {
	slices.SortFunc(p, comparePoly)
	out := p[:0]
	for _, t := range p {
		if n := len(out); n > 0 && out[n-1].mono == t.mono {
			out[n-1].coef += t.coef
		} else {
			out = append(out, t)
		}
	}
	return slices.DeleteFunc(out, func(t term) bool { return t.coef == 0 })
}

func addPoly(a, b polynomial, sign int64) polynomial {
	out := append(polynomial(nil), a...)
	for _, t := range b {
		out = append(out, term{t.mono, sign * t.coef})
	}
	return out.normalize()
}

func mulPoly(a, b polynomial) polynomial {
	out := make(polynomial, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			var m monomial
			for k := range m {
				m[k] = x.mono[k] + y.mono[k]
			}
			out = append(out, term{m, x.coef * y.coef})
		}
	}
	return out.normalize()
}

// polynomialOf expands the expression.
func (e *Expr) polynomialOf() polynomial {
	polys := make([]polynomial, e.n)
	for i := int8(0); i < e.n; i++ {
		nd := &e.nodes[i]
		switch nd.kind {
		case nodeVar:
			var m monomial
			m[nd.v] = 1
			polys[i] = polynomial{{m, 1}}
		case nodeAdd:
			polys[i] = addPoly(polys[nd.l], polys[nd.r], 1)
		case nodeSub:
			polys[i] = addPoly(polys[nd.l], polys[nd.r], -1)
		case nodeMul:
			polys[i] = mulPoly(polys[nd.l], polys[nd.r])
		}
	}
	return polys[e.n-1]
}

// functionKey spells the function the expression computes on its tuples: the
// number of digits shown and the expanded polynomial ("3:1*a*c-1*b"). Two
// expressions have the same key exactly when they show the same digits and
// agree on every tuple.
//
// abs, max and min have no polynomial: a branching expression's key is its
// values instead, "4:values:" and a 64-bit FNV-1a hash of its value on
// every digit tuple, in tuple order, when it shows at most 4 digits (10^4
// tuples), so that two levels that agree on every tuple (abs(a-b) and
// max(a-b,b-a), or max(a,b)+c and c+max(b,a)) share their split there too;
// beyond 4 digits it is "n:canonical:" and the canonical form (the split is
// then the spelling's, up to canonical identity).
func (e *Expr) functionKey() string {
	if e.Branches() {
		return e.valuesKey()
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(e.vars)))
	b.WriteByte(':')
	p := e.polynomialOf()
	slices.SortStableFunc(p, func(x, y term) int { return -cmp.Compare(degree(x.mono), degree(y.mono)) })
	for i, t := range p {
		if t.coef < 0 {
			b.WriteByte('-')
		} else if i > 0 {
			b.WriteByte('+')
		}
		b.WriteString(strconv.FormatInt(max(t.coef, -t.coef), 10))
		for k, x := range t.mono {
			for range x {
				b.WriteByte('*')
				b.WriteByte(byte('a' + k))
			}
		}
	}
	if len(p) == 0 {
		b.WriteByte('0')
	}
	return b.String()
}

func degree(m monomial) int {
	d := 0
	for _, x := range m {
		d += int(x)
	}
	return d
}

// functionSalt is the split's salt: a hash of functionKey.
func (e *Expr) functionSalt() uint64 { return exprSalt(e.functionKey()) }

// valuesKeyUpTo is the most tuples valuesKey hashes (4 digits).
const valuesKeyUpTo = 10_000

// valuesKey is functionKey for a branching expression (see there).
func (e *Expr) valuesKey() string {
	space := tupleSpace(e.vars)
	if space > valuesKeyUpTo {
		return strconv.Itoa(int(e.vars)) + ":canonical:" + e.Canonical()
	}
	h := uint64(0xcbf29ce484222325)
	var d [MaxVars]int32
	for idx := uint64(0); idx < space; idx++ {
		tupleDigits(idx, e.vars, &d)
		v := uint64(e.Eval(&d))
		for k := 0; k < 8; k++ {
			h ^= v >> (8 * k) & 0xff
			h *= 0x100000001b3
		}
	}
	return strconv.Itoa(int(e.vars)) + ":values:" + strconv.FormatUint(h, 16)
}

package countdown

// Rules say which intermediates are allowed.
type Rules uint8

const (
	// Integers is Countdown (Stream of Search): every intermediate is a
	// non-negative integer, divisions are exact.
	Integers Rules = iota
	// Fractions is the 24 Game: any rational, no division by zero.
	Fractions
)

// Op is one of the six operations on a pair (a in the lower slot, b in the
// higher): both orders of the two that do not commute.
type Op int8

const (
	Add  Op = iota // a + b
	Sub            // a − b
	RSub           // b − a
	Mul            // a × b
	Div            // a ÷ b
	RDiv           // b ÷ a
	NumOps
)

var opNames = [NumOps]string{"a+b", "a-b", "b-a", "a*b", "a/b", "b/a"}

// Symbol spells op between its operands in the order it reads them.
var opSymbols = [NumOps]string{"+", "-", "-", "*", "/", "/"}

func (o Op) String() string {
	if o < 0 || o >= NumOps {
		return "?"
	}
	return opNames[o]
}

// Swapped reports whether op reads b before a (b−a, b÷a).
func (o Op) Swapped() bool { return o == RSub || o == RDiv }

// MulDiv reports whether op multiplies or divides.
func (o Op) MulDiv() bool { return o >= Mul }

// Apply is op on a and b under r, and whether r allows it.
func (r Rules) Apply(op Op, a, b Value) (Value, bool) {
	if op.Swapped() {
		a, b = b, a
		op-- // RSub → Sub, RDiv → Div
	}
	switch op {
	case Add:
		return reduced(a.N*b.D+b.N*a.D, a.D*b.D), true
	case Sub:
		v := reduced(a.N*b.D-b.N*a.D, a.D*b.D)
		return v, r == Fractions || v.N >= 0
	case Mul:
		return reduced(a.N*b.N, a.D*b.D), true
	case Div:
		if b.N == 0 {
			return Value{}, false
		}
		v := reduced(a.N*b.D, a.D*b.N)
		return v, r == Fractions || v.IsInt()
	}
	return Value{}, false
}

// Allowed reports whether r allows op on a and b: Apply's second result,
// without reducing the value (no gcd).
func (r Rules) Allowed(op Op, a, b Value) bool {
	if op.Swapped() {
		a, b = b, a
		op--
	}
	switch op {
	case Add, Mul:
		return true
	case Sub: // the difference's sign: the denominators are positive
		return r == Fractions || a.N*b.D >= b.N*a.D
	case Div: // exact: the divisor a.D·b.N (≠ 0) divides a.N·b.D
		return b.N != 0 && (r == Fractions || a.N*b.D%(a.D*b.N) == 0)
	}
	return false
}

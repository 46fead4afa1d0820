package countdown

import "fmt"

// Value is a rational N/D in lowest terms, D > 0: Countdown's are integers
// (D = 1), the 24 Game's may be fractions.
type Value struct{ N, D int64 }

// Int is the integer n as a Value.
func Int(n int64) Value { return Value{n, 1} }

// IsInt reports whether v is an integer.
func (v Value) IsInt() bool { return v.D == 1 }

func (v Value) String() string {
	if v.D == 1 {
		return fmt.Sprint(v.N)
	}
	return fmt.Sprintf("%d/%d", v.N, v.D)
}

// Cmp is −1, 0 or +1 as v is below, equal to or above w.
func (v Value) Cmp(w Value) int {
	l, r := v.N*w.D, w.N*v.D // the pools' values stay far below 2^31: no overflow
	switch {
	case l < r:
		return -1
	case l > r:
		return 1
	}
	return 0
}

// reduced is n/d in lowest terms with a positive denominator (d ≠ 0).
func reduced(n, d int64) Value {
	if d < 0 {
		n, d = -n, -d
	}
	g := gcd(abs(n), d)
	return Value{n / g, d / g}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

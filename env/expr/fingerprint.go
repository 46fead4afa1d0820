package expr

import "math/bits"

// A machine state is told apart in the search by the values of its
// registers at fpPoints fixed points modulo the prime 2^61−1. The map from
// polynomials to those values commutes with every tool (it is a ring
// homomorphism), which is what makes the search's lengths exact (see
// Search).
const (
	prime    = 1<<61 - 1
	fpPoints = 2
)

// fingerprint is a polynomial's value at each point, mod prime.
type fingerprint [fpPoints]uint64

// points are the leaves' values at each point: splitmix64 of a fixed
// counter, reduced mod prime.
var points = func() (pts [fpPoints][MaxLeaves]uint64) {
	for i := range pts {
		for k := range pts[i] {
			z := uint64(i*MaxLeaves+k+1) * 0x9E3779B97F4A7C15
			z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
			z = (z ^ z>>27) * 0x94D049BB133111EB
			z ^= z >> 31
			pts[i][k] = z % prime
		}
	}
	return pts
}()

func mulMod(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	x := (hi<<3 | lo>>61) + lo&prime // 2^61 ≡ 1
	if x >= prime {
		x -= prime
	}
	return x
}

func addMod(a, b uint64) uint64 {
	x := a + b
	if x >= prime {
		x -= prime
	}
	return x
}

func subMod(a, b uint64) uint64 {
	if a >= b {
		return a - b
	}
	return a + prime - b
}

// fingerprintOf is p's value at every point.
func fingerprintOf(p Poly) fingerprint {
	var f fingerprint
	for i := range f {
		for _, t := range p {
			x := uint64(1)
			for k := 0; k < MaxLeaves; k++ {
				if t.Mono>>k&1 == 1 {
					x = mulMod(x, points[i][k])
				}
			}
			c := uint64(t.Coef) % prime
			if t.Coef < 0 {
				c = prime - uint64(-t.Coef)%prime
			}
			f[i] = addMod(f[i], mulMod(x, c))
		}
	}
	return f
}

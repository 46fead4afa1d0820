package enginekit

import "sort"

// Memory is a memory estimate in shares, each under the Config field (by its
// JSON name) that drives it, so that a refusal can name the flag that lowers
// the largest.
type Memory map[string]float64

// Total is the sum of the shares.
func (m Memory) Total() float64 {
	total := 0.0
	for _, b := range m {
		total += b
	}
	return total
}

// Knob is the field of the largest share (the first by name of equal ones,
// for a message that does not change from run to run); "" when empty.
func (m Memory) Knob() string {
	knobs := make([]string, 0, len(m))
	for k := range m {
		knobs = append(knobs, k)
	}
	sort.Strings(knobs)
	best := ""
	for _, k := range knobs {
		if best == "" || m[k] > m[best] {
			best = k
		}
	}
	return best
}

// AllocBytes is what the Go allocator takes for an object of n bytes: small
// objects are rounded up to their size class (multiples of 16 up to 256
// bytes, of 8 below 32), larger ones by about an eighth at most.
func AllocBytes(n float64) float64 {
	switch {
	case n <= 0:
		return 0
	case n <= 32:
		return float64((int(n) + 7) &^ 7)
	case n <= 256:
		return float64((int(n) + 15) &^ 15)
	}
	return 1.125 * n
}

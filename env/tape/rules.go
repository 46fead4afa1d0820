package tape

import "github.com/simdrl/simdrl/env/taperules"

// Bits is v as taperules' variant bits (taperules.Rules.Variant).
func (v Variant) Bits() uint32 {
	var b uint32
	for _, f := range []struct {
		on  bool
		bit uint32
	}{{v.Loose, taperules.Loose}, {v.Blind, taperules.Blind}, {v.Unstacked, taperules.Unstacked}, {v.Branching, taperules.Branching}, {v.Headless, taperules.Headless}} {
		if f.on {
			b |= f.bit
		}
	}
	return b
}

// CellBits is how many bits a packed cell of v's tapes takes
// (taperules.CellBits).
func (v Variant) CellBits() int { return taperules.CellBits(v.Bits()) }

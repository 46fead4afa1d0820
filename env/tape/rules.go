package tape

import "github.com/simdrl/simdrl/env/taperules"

// Bits is v as taperules' variant bits (taperules.Rules.Variant).
func (v Variant) Bits() uint32 {
	var b uint32
	if v.Loose {
		b |= taperules.Loose
	}
	if v.Blind {
		b |= taperules.Blind
	}
	if v.Unstacked {
		b |= taperules.Unstacked
	}
	if v.Branching {
		b |= taperules.Branching
	}
	if v.Headless {
		b |= taperules.Headless
	}
	return b
}

// CellBits is how many bits a packed cell of v's tapes takes: 4 (the cells
// up to Leaf, the stop), 5 with branching's four more cells (taperules'
// data layout).
func (v Variant) CellBits() int {
	if v.Branching {
		return 5
	}
	return 4
}
